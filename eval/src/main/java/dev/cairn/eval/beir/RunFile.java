package dev.cairn.eval.beir;

import dev.cairn.retrieval.ingest.BeirIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Writes TREC run files: one line {@code qid Q0 docid rank score tag} per retrieved document, ranks
 * 1-based, queries in map order, documents in list order, each by its corpus id ({@link
 * BeirIds#beirId}). Stateless and thread-safe.
 */
public final class RunFile {

    private static final Pattern WHITESPACE = Pattern.compile("\\s");

    private RunFile() {}

    /** Writes {@code run} (query id to ranked documents) to {@code out} without closing it. */
    public static void write(Map<String, List<ScoredDoc>> run, String tag, Writer out) {
        checkToken("tag", tag);
        try {
            for (Map.Entry<String, List<ScoredDoc>> e : run.entrySet()) {
                checkToken("query id", e.getKey());
                int rank = 0;
                for (ScoredDoc d : e.getValue()) {
                    String id = BeirIds.beirId(d.id());
                    checkToken("document id", id);
                    out.write(
                            String.format(
                                    Locale.ROOT,
                                    "%s Q0 %s %d %.6f %s\n",
                                    e.getKey(),
                                    id,
                                    ++rank,
                                    d.score(),
                                    tag));
                }
            }
            out.flush();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static void checkToken(String what, String value) {
        if (value == null || value.isEmpty() || WHITESPACE.matcher(value).find()) {
            throw new IllegalArgumentException(
                    "illegal " + what + ": '" + value + "', must be non-empty without whitespace");
        }
    }
}
