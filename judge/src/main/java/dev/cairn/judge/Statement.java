package dev.cairn.judge;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A claim or evidence sentence analysed once per judgement: its content words, quantities, the
 * words each negation cue scopes over and, per clause, the effect and quantifiers it states.
 * Immutable and thread-safe.
 *
 * @param text the text
 * @param stems stemmed content words
 * @param quantities numbers, dates and versions
 * @param polar the stems that belong to an antonym pair
 * @param clauses the sentence's clauses, in order
 */
record Statement(
        String text,
        Set<String> stems,
        List<Quantities.Quantity> quantities,
        Set<String> polar,
        List<Clause> clauses) {

    /** Tokens after a negation cue that it is taken to scope over, within its clause. */
    static final int NEGATION_SCOPE = 5;

    /**
     * One clause of a statement.
     *
     * @param stems its stemmed content words
     * @param negationScopes for each negation cue, the stems of the tokens after it up to {@link
     *     #NEGATION_SCOPE} or the end of the clause, whichever comes first
     * @param effect the effect it states or denies
     * @param quantifiers how much of its subject it speaks for
     */
    record Clause(
            Set<String> stems,
            List<List<String>> negationScopes,
            Effect effect,
            Map<Quantifier, String> quantifiers) {}

    static Statement of(String text) {
        List<Clause> clauses = new ArrayList<>();
        for (List<String> tokens : Text.clauses(text)) {
            List<List<String>> scopes = new ArrayList<>();
            Set<String> clauseStems = new java.util.LinkedHashSet<>();
            for (int i = 0; i < tokens.size(); i++) {
                String token = tokens.get(i);
                if (Text.isContent(token)) {
                    clauseStems.add(Text.stem(token));
                }
                // "not only" affirms what follows
                boolean notOnly = i + 1 < tokens.size() && tokens.get(i + 1).equals("only");
                if (Text.isNegation(token) && !notOnly) {
                    List<String> scope = new ArrayList<>();
                    for (int k = i + 1; k < Math.min(tokens.size(), i + 1 + NEGATION_SCOPE); k++) {
                        scope.add(Text.stem(tokens.get(k)));
                    }
                    scopes.add(List.copyOf(scope));
                }
            }
            clauses.add(
                    new Clause(
                            Set.copyOf(clauseStems),
                            List.copyOf(scopes),
                            Effect.of(tokens),
                            Quantifier.of(tokens)));
        }
        Set<String> stems = Set.copyOf(Text.contentStems(text));
        Set<String> polar = new java.util.HashSet<>(stems);
        polar.retainAll(Comparison.POLAR_STEMS);
        return new Statement(
                text, stems, Quantities.of(text), Set.copyOf(polar), List.copyOf(clauses));
    }

    /**
     * Whether this statement negates something the other side talks about: a negation cue with one
     * of {@code otherStems} in its scope.
     */
    boolean negatedNear(Set<String> otherStems) {
        return negatedNear(clauses, otherStems);
    }

    /**
     * Whether one of {@code clauses} has a negation cue with one of {@code otherStems} in its
     * scope. Given the clauses aligned with a claim, a negation in another clause of a long
     * evidence sentence ("..., although it does not prevent transmission") does not flip it.
     */
    static boolean negatedNear(List<Clause> clauses, Set<String> otherStems) {
        for (Clause c : clauses) {
            for (List<String> scope : c.negationScopes()) {
                for (String s : scope) {
                    if (otherStems.contains(s)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * The clauses that speak about the claim: those sharing at least one content word with {@code
     * claimStems} and at least half as many as the clause sharing the most. A long evidence
     * sentence often reports several findings; only the one about the claim's subject can agree or
     * disagree with it.
     */
    List<Clause> alignedWith(Set<String> claimStems) {
        int[] shared = new int[clauses.size()];
        int most = 0;
        for (int k = 0; k < clauses.size(); k++) {
            for (String s : clauses.get(k).stems()) {
                if (claimStems.contains(s)
                        && !Effect.UP_WORDS.contains(s)
                        && !Effect.DOWN_WORDS.contains(s)
                        && !Effect.ANY_WORDS.contains(s)) {
                    shared[k]++;
                }
            }
            most = Math.max(most, shared[k]);
        }
        List<Clause> out = new ArrayList<>();
        for (int k = 0; k < clauses.size(); k++) {
            if (shared[k] > 0 && shared[k] * 2 >= most) {
                out.add(clauses.get(k));
            }
        }
        return out;
    }

    /** The quantifiers of all clauses together. */
    Map<Quantifier, String> quantifiers() {
        return Quantifier.merge(clauses.stream().map(Clause::quantifiers).toList());
    }

    /** The effect of all clauses together. */
    Effect effect() {
        return Effect.merge(clauses.stream().map(Clause::effect).toList());
    }
}
