package dev.cairn.judge;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * How much of its subject a clause speaks for: all, most, some or few. "All patients respond" is
 * not what "some patients responded" says, nor "most" what "a minority" says, though the sentences
 * share every content word. Stateless and thread-safe.
 */
enum Quantifier {
    /** all, every, always. */
    UNIVERSAL,
    /** most, the majority, usually. */
    MAJORITY,
    /** some, a subset, sometimes. */
    PARTIAL,
    /** few, a minority, rarely. */
    MINORITY;

    private static final Map<String, Quantifier> WORDS =
            Map.ofEntries(
                    Map.entry("all", UNIVERSAL),
                    Map.entry("every", UNIVERSAL),
                    Map.entry("always", UNIVERSAL),
                    Map.entry("universally", UNIVERSAL),
                    Map.entry("invariably", UNIVERSAL),
                    Map.entry("most", MAJORITY),
                    Map.entry("majority", MAJORITY),
                    Map.entry("mostly", MAJORITY),
                    Map.entry("usually", MAJORITY),
                    Map.entry("predominantly", MAJORITY),
                    Map.entry("some", PARTIAL),
                    Map.entry("sometimes", PARTIAL),
                    Map.entry("subset", PARTIAL),
                    Map.entry("occasionally", PARTIAL),
                    Map.entry("partially", PARTIAL),
                    Map.entry("partly", PARTIAL),
                    Map.entry("few", MINORITY),
                    Map.entry("minority", MINORITY),
                    Map.entry("rarely", MINORITY),
                    Map.entry("seldom", MINORITY));

    /** The quantifiers of one clause's tokens (lower-cased), each with the word that said it. */
    static Map<Quantifier, String> of(List<String> tokens) {
        Map<Quantifier, String> out = new EnumMap<>(Quantifier.class);
        for (int i = 0; i < tokens.size(); i++) {
            Quantifier q = WORDS.get(tokens.get(i));
            // "at least some", "not all" and "a few" are not the bare quantifier
            boolean qualified =
                    i > 0
                            && (Text.isNegation(tokens.get(i - 1))
                                    || tokens.get(i - 1).equals("least")
                                    || (q == MINORITY && tokens.get(i - 1).equals("a")));
            if (q != null && !qualified) {
                out.putIfAbsent(q, tokens.get(i));
            }
        }
        return out.isEmpty() ? Map.of() : Map.copyOf(out);
    }

    /** The quantifiers of several clauses together. */
    static Map<Quantifier, String> merge(List<Map<Quantifier, String>> quantifiers) {
        Map<Quantifier, String> out = new EnumMap<>(Quantifier.class);
        quantifiers.forEach(q -> q.forEach(out::putIfAbsent));
        return out;
    }

    /**
     * Why a sentence quantified {@code sentence} contradicts a claim quantified {@code claim}, or
     * empty: the claim speaks for all and the sentence only for some or few, or one says most and
     * the other few. A claim about some is not contradicted by a sentence about all: all includes
     * some.
     */
    static String conflict(Map<Quantifier, String> claim, Map<Quantifier, String> sentence) {
        for (Map.Entry<Quantifier, String> c : claim.entrySet()) {
            for (Map.Entry<Quantifier, String> s : sentence.entrySet()) {
                if (c.getKey().excludes(s.getKey()) && !sentence.containsKey(c.getKey())) {
                    return "'" + c.getValue() + "' vs '" + s.getValue() + "'";
                }
            }
        }
        return "";
    }

    private boolean excludes(Quantifier other) {
        return switch (this) {
            case UNIVERSAL -> other == PARTIAL || other == MINORITY;
            case MAJORITY -> other == MINORITY;
            case PARTIAL -> false;
            case MINORITY -> other == UNIVERSAL || other == MAJORITY;
        };
    }
}
