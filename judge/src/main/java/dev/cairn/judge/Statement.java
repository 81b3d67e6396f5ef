package dev.cairn.judge;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A claim or evidence sentence analysed once per judgement: its content words, quantities and the
 * words each negation cue scopes over. Immutable and thread-safe.
 *
 * @param text the text
 * @param stems stemmed content words
 * @param quantities numbers, dates and versions
 * @param negationScopes for each negation cue, the stems of the {@link #NEGATION_SCOPE} tokens
 *     after it
 * @param polar the stems that belong to an antonym pair
 */
record Statement(
        String text,
        Set<String> stems,
        List<Quantities.Quantity> quantities,
        List<List<String>> negationScopes,
        Set<String> polar) {

    /** Tokens after a negation cue that it is taken to scope over. */
    static final int NEGATION_SCOPE = 5;

    static Statement of(String text) {
        List<String> tokens = Text.tokens(text);
        List<List<String>> scopes = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            if (Text.isNegation(tokens.get(i))) {
                List<String> scope = new ArrayList<>();
                for (int k = i + 1; k < Math.min(tokens.size(), i + 1 + NEGATION_SCOPE); k++) {
                    scope.add(Text.stem(tokens.get(k)));
                }
                scopes.add(List.copyOf(scope));
            }
        }
        Set<String> stems = Set.copyOf(Text.contentStems(text));
        Set<String> polar = new java.util.HashSet<>(stems);
        polar.retainAll(Comparison.POLAR_STEMS);
        return new Statement(
                text, stems, Quantities.of(text), List.copyOf(scopes), Set.copyOf(polar));
    }

    /**
     * Whether this statement negates something the other side talks about: a negation cue with one
     * of {@code otherStems} among the {@link #NEGATION_SCOPE} tokens after it. A negation in an
     * unrelated clause of a long evidence sentence does not flip the statement.
     */
    boolean negatedNear(Set<String> otherStems) {
        for (List<String> scope : negationScopes) {
            for (String s : scope) {
                if (otherStems.contains(s)) {
                    return true;
                }
            }
        }
        return false;
    }
}
