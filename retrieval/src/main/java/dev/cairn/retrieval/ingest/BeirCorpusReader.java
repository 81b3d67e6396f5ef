package dev.cairn.retrieval.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.retrieval.store.DocumentFormat;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Streams a BEIR {@code corpus.jsonl} ({@code {"_id", "title", "text", ...}} per line) as {@link
 * ParsedDocument}s of format {@link DocumentFormat#TEXT}; the body is the {@code text} field. Blank
 * lines are skipped; a bad line is an {@link IllegalArgumentException} naming its line number. Not
 * thread-safe: one stream per reader.
 */
public final class BeirCorpusReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    private BeirCorpusReader() {}

    /** A lazy stream over the file; close it to close the file. */
    public static Stream<ParsedDocument> read(Path corpus) {
        try {
            return read(Files.newInputStream(corpus));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + corpus, e);
        }
    }

    /** A lazy stream over UTF-8 JSON lines; closing the stream closes {@code in}. */
    public static Stream<ParsedDocument> read(InputStream in) {
        BufferedReader reader =
                new BufferedReader(
                        new InputStreamReader(
                                in,
                                StandardCharsets.UTF_8
                                        .newDecoder()
                                        .onMalformedInput(CodingErrorAction.REPORT)
                                        .onUnmappableCharacter(CodingErrorAction.REPORT)));
        Iterator<ParsedDocument> it =
                new Iterator<>() {
                    private int lineNo;
                    private ParsedDocument next;

                    @Override
                    public boolean hasNext() {
                        if (next != null) {
                            return true;
                        }
                        try {
                            String line;
                            while ((line = reader.readLine()) != null) {
                                lineNo++;
                                if (!line.isBlank()) {
                                    next = parseLine(line, lineNo);
                                    return true;
                                }
                            }
                            return false;
                        } catch (java.nio.charset.CharacterCodingException e) {
                            throw new IllegalArgumentException(
                                    "invalid UTF-8 after line " + lineNo + " of corpus", e);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }

                    @Override
                    public ParsedDocument next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        ParsedDocument d = next;
                        next = null;
                        return d;
                    }
                };
        return StreamSupport.stream(
                        Spliterators.spliteratorUnknownSize(
                                it, Spliterator.ORDERED | Spliterator.NONNULL),
                        false)
                .onClose(
                        () -> {
                            try {
                                reader.close();
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        });
    }

    static ParsedDocument parseLine(String line, int lineNo) {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "malformed JSON at line "
                            + lineNo
                            + " of corpus: "
                            + e.getMessage().lines().findFirst().orElse(""),
                    e);
        }
        if (node == null || !node.isObject() || !node.path("_id").isValueNode()) {
            throw new IllegalArgumentException(
                    "illegal corpus line " + lineNo + ": must be an object with an _id");
        }
        String id = BeirIds.documentId(node.path("_id").asText());
        String title = node.path("title").asText("");
        String text = node.path("text").asText("");
        TextChecks.requireText(text, "corpus line " + lineNo);
        TextChecks.requireText(title, "corpus line " + lineNo);
        return ParsedDocument.plain(id, title, DocumentFormat.TEXT, text);
    }
}
