package dev.cairn.eval.beir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.retrieval.ingest.BeirCorpusReader;
import dev.cairn.retrieval.ingest.BeirIds;
import dev.cairn.retrieval.ingest.ParsedDocument;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Loads a BEIR-format folder: {@code corpus.jsonl}, {@code queries.jsonl} ({@code {"_id", "text"}}
 * per line) and {@code qrels/*.tsv} ({@code query-id<TAB>corpus-id<TAB>score} after a header line).
 * Stateless and thread-safe.
 */
public final class Beir {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Beir() {}

    /** Streams {@code dir/corpus.jsonl}; close the stream. */
    public static Stream<ParsedDocument> corpus(Path dir) {
        return BeirCorpusReader.read(dir.resolve("corpus.jsonl"));
    }

    /** Query id to query text, in file order. */
    public static Map<String, String> queries(Path queriesJsonl) {
        Map<String, String> queries = new LinkedHashMap<>();
        try (BufferedReader r = Files.newBufferedReader(queriesJsonl, StandardCharsets.UTF_8)) {
            String line;
            int lineNo = 0;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node;
                try {
                    node = JSON.readTree(line);
                } catch (IOException e) {
                    throw new IllegalArgumentException(
                            "malformed JSON at line " + lineNo + " of " + queriesJsonl, e);
                }
                if (node == null || !node.path("_id").isValueNode()) {
                    throw new IllegalArgumentException(
                            "illegal query at line " + lineNo + " of " + queriesJsonl + ": no _id");
                }
                queries.put(node.path("_id").asText(), node.path("text").asText(""));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + queriesJsonl, e);
        }
        return queries;
    }

    /**
     * Reads a qrels TSV; the first line is a header when its third column is not an integer. Later
     * lines must have three tab-separated columns with an integer score.
     */
    public static Qrels qrels(Path tsv) {
        Map<String, Map<String, Integer>> judgments = new LinkedHashMap<>();
        try (BufferedReader r = Files.newBufferedReader(tsv, StandardCharsets.UTF_8)) {
            String line;
            int lineNo = 0;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String[] cols = line.strip().split("\t");
                if (cols.length != 3) {
                    throw new IllegalArgumentException(
                            "illegal qrels line "
                                    + lineNo
                                    + " of "
                                    + tsv
                                    + ": must have 3 columns");
                }
                int score;
                try {
                    score = Integer.parseInt(cols[2].strip());
                } catch (NumberFormatException e) {
                    if (lineNo == 1) {
                        continue; // header
                    }
                    throw new IllegalArgumentException(
                            "illegal score '" + cols[2] + "' at line " + lineNo + " of " + tsv, e);
                }
                judgments
                        .computeIfAbsent(cols[0].strip(), q -> new LinkedHashMap<>())
                        .put(BeirIds.documentId(cols[1].strip()), score);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + tsv, e);
        }
        return new Qrels(judgments);
    }
}
