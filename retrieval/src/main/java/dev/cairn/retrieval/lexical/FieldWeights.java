package dev.cairn.retrieval.lexical;

/**
 * Query-time boosts of the indexed fields. A chunk is indexed into {@code title}, {@code headings}
 * and {@code text}, and into {@code contents}, the three joined (as Anserini indexes a BEIR
 * document's title and text as one field). A weight of 0 leaves a field out of the query.
 *
 * @param title boost of the document title field, {@code >= 0}
 * @param headings boost of the heading-path field, {@code >= 0}
 * @param text boost of the chunk text field, {@code >= 0}
 * @param contents boost of the joined field, {@code >= 0}
 */
public record FieldWeights(double title, double headings, double text, double contents) {

    /**
     * Default: the joined field only. On SciFact train this matches Anserini's flat BM25 and beat
     * the per-field combinations tried (see {@code package-info}).
     */
    public static final FieldWeights DEFAULTS = new FieldWeights(0, 0, 0, 1);

    public FieldWeights {
        check("title", title);
        check("headings", headings);
        check("text", text);
        check("contents", contents);
        if (title + headings + text + contents == 0) {
            throw new IllegalArgumentException("illegal weights: all 0, at least one must be > 0");
        }
    }

    private static void check(String name, double w) {
        if (!(w >= 0) || Double.isInfinite(w)) {
            throw new IllegalArgumentException(
                    "illegal " + name + " weight: " + w + ", must be >= 0 and finite");
        }
    }
}
