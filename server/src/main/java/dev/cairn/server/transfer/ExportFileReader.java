package dev.cairn.server.transfer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an export file line by line: the header, then each record handed to a {@link Records} by
 * type, then the end line, whose counts are checked against the records read. Every problem is an
 * {@link IllegalArgumentException} that names its line. Stateless.
 */
final class ExportFileReader {

    private ExportFileReader() {}

    /**
     * The header of {@code file}.
     *
     * @throws IllegalArgumentException when line 1 is not an export header this build reads
     */
    static ExportFormat.Header header(Path file) {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String first = r.readLine();
            if (first == null) {
                throw new IllegalArgumentException(
                        "illegal export file: empty, line 1 must be the header");
            }
            return header(first);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static ExportFormat.Header header(String line) {
        ExportFormat.Header h;
        try {
            h = ExportFormat.JSON.readValue(line, ExportFormat.Header.class);
        } catch (JsonProcessingException e) {
            throw atLine(1, "not a Cairn export header (" + firstLine(e) + ")");
        }
        if (!ExportFormat.FORMAT.equals(h.format())) {
            throw atLine(1, "format '" + h.format() + "', must be '" + ExportFormat.FORMAT + "'");
        }
        if (!ExportFormat.READABLE.contains(h.version())) {
            throw atLine(
                    1,
                    "version "
                            + h.version()
                            + "; this Cairn reads versions "
                            + new java.util.TreeSet<>(ExportFormat.READABLE));
        }
        if (h.namespace() == null
                || h.description() == null
                || h.recallScope() == null
                || h.model() == null
                || h.dimensions() < 1) {
            throw atLine(
                    1,
                    "the header needs namespace, description, recallScope, model and dimensions");
        }
        return h;
    }

    /** What {@link #each} hands each record to, by type. */
    interface Records {
        void memory(ExportedMemory memory);

        void document(ExportedDocument document);

        void conversation(ExportedConversation conversation);

        void entry(ExportedEntry entry);

        void relation(ExportedRelation relation);

        void proposal(ExportedProposal proposal);

        void judgment(ExportedJudgment judgment);

        void adaptation(ExportedAdaptation adaptation);

        void policy(ExportedPolicy policy);
    }

    /**
     * Hands every record after the header to {@code records} in file order and answers how many of
     * each type there were, after checking them against the end line's counts (types a file has
     * none of may be left out of them).
     */
    static Map<String, Long> each(Path file, int version, Records records) {
        List<String> types = ExportFormat.recordTypes(version);
        Map<String, Long> seen = new LinkedHashMap<>();
        for (String type : types) {
            seen.put(type, 0L);
        }
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line = r.readLine();
            int lineNo = 1;
            ExportFormat.End end = null;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (end != null) {
                    throw atLine(lineNo, "a record after the end line");
                }
                try {
                    JsonNode node = ExportFormat.JSON.readTree(line);
                    String type =
                            node != null && node.isObject() ? node.path("type").asText("") : "";
                    if (types.contains(type)) {
                        seen.merge(type, 1L, Long::sum);
                    } else if (!type.equals(ExportFormat.End.TYPE)
                            && ExportFormat.RECORD_TYPES.contains(type)) {
                        throw new IllegalArgumentException(
                                "record type '" + type + "' in a version " + version + " file");
                    }
                    switch (type) {
                        case ExportedMemory.TYPE ->
                                records.memory(
                                        ExportFormat.JSON.treeToValue(node, ExportedMemory.class));
                        case ExportedDocument.TYPE ->
                                records.document(
                                        ExportFormat.JSON.treeToValue(
                                                node, ExportedDocument.class));
                        case ExportedConversation.TYPE ->
                                records.conversation(
                                        ExportFormat.JSON.treeToValue(
                                                node, ExportedConversation.class));
                        case ExportedEntry.TYPE ->
                                records.entry(
                                        ExportFormat.JSON.treeToValue(node, ExportedEntry.class));
                        case ExportedRelation.TYPE ->
                                records.relation(
                                        ExportFormat.JSON.treeToValue(
                                                node, ExportedRelation.class));
                        case ExportedProposal.TYPE ->
                                records.proposal(
                                        ExportFormat.JSON.treeToValue(
                                                node, ExportedProposal.class));
                        case ExportedJudgment.TYPE ->
                                records.judgment(
                                        ExportFormat.JSON.treeToValue(
                                                node, ExportedJudgment.class));
                        case ExportedAdaptation.TYPE ->
                                records.adaptation(
                                        ExportFormat.JSON.treeToValue(
                                                node, ExportedAdaptation.class));
                        case ExportedPolicy.TYPE ->
                                records.policy(
                                        ExportFormat.JSON.treeToValue(node, ExportedPolicy.class));
                        case ExportFormat.End.TYPE ->
                                end = ExportFormat.JSON.treeToValue(node, ExportFormat.End.class);
                        default ->
                                throw new IllegalArgumentException(
                                        type.isEmpty()
                                                ? "not a record (an object with a type)"
                                                : "unknown record type '" + type + "'");
                    }
                } catch (JsonProcessingException e) {
                    throw atLine(lineNo, firstLine(e));
                } catch (IllegalArgumentException | NullPointerException e) {
                    if (e.getMessage() != null && e.getMessage().startsWith("line ")) {
                        throw e;
                    }
                    throw atLine(lineNo, String.valueOf(e.getMessage()));
                }
            }
            if (end == null) {
                throw new IllegalArgumentException(
                        "truncated export file: line "
                                + lineNo
                                + " is the last and there is no end line");
            }
            Map<String, Long> counted = new LinkedHashMap<>(end.records());
            counted.values().removeIf(n -> n == 0);
            Map<String, Long> held = new LinkedHashMap<>(seen);
            held.values().removeIf(n -> n == 0);
            if (!held.equals(counted)) {
                throw atLine(
                        lineNo,
                        "the end line counts " + end.records() + " but the file holds " + seen);
            }
            return seen;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static IllegalArgumentException atLine(int lineNo, String problem) {
        return new IllegalArgumentException("line " + lineNo + ": " + problem);
    }

    private static String firstLine(JsonProcessingException e) {
        return e.getOriginalMessage().lines().findFirst().orElse("malformed JSON");
    }
}
