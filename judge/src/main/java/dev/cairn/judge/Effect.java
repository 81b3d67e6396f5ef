package dev.cairn.judge;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What one clause says about an effect: the directions it states ("increases", "reduces", "is
 * associated with") and whether it denies one ("did not increase", "no association", "was
 * unaffected"). Scientific and operational claims alike turn on this: "X reduces Y" against "X
 * increased Y", or "X is associated with Y" against "X was not associated with Y", read as similar
 * sentences but say opposite things. Immutable and thread-safe.
 *
 * @param mentioned each direction an effect word names, denied or not, with the first such word
 * @param anchored each stated increase or decrease with the content words around it, its object
 * @param stated each direction stated without a denial, with the first word that stated it
 * @param denied the first effect word under a negation with its negation ("not associated"), or a
 *     word that itself denies an effect ("unaffected"); empty when none
 * @param deniedDirection the direction of that denied word; {@link Direction#ANY} for a word that
 *     denies by itself
 */
record Effect(
        Map<Direction, String> mentioned,
        List<Anchored> anchored,
        Map<Direction, String> stated,
        String denied,
        Direction deniedDirection) {

    /** The direction of an effect word. */
    enum Direction {
        /** More of the object: increases, raises, higher. */
        UP,
        /** Less of the object: reduces, inhibits, lower. */
        DOWN,
        /** A relation without a direction: is associated with, affects, correlates. */
        ANY
    }

    /**
     * A stated increase or decrease and what it is about.
     *
     * @param direction {@link Direction#UP} or {@link Direction#DOWN}
     * @param word the word that states it
     * @param around the stems of the content words within {@value #ANCHOR_WINDOW} tokens of it,
     *     effect words excluded: "lower risk", "risk was reduced"
     */
    record Anchored(Direction direction, String word, Set<String> around) {}

    /** How many tokens either side of a direction word name what it is about. */
    static final int ANCHOR_WINDOW = 3;

    /** Words that state an increase, compared after {@link Text#stem stemming}. */
    static final Set<String> UP_WORDS =
            stems(
                    "increase",
                    "increases",
                    "increased",
                    "increasing",
                    "raise",
                    "raises",
                    "raised",
                    "elevate",
                    "elevated",
                    "elevates",
                    "enhance",
                    "enhanced",
                    "enhances",
                    "augment",
                    "augments",
                    "augmented",
                    "boost",
                    "boosts",
                    "boosted",
                    "promote",
                    "promotes",
                    "promoted",
                    "induce",
                    "induces",
                    "induced",
                    "stimulate",
                    "stimulates",
                    "stimulated",
                    "activate",
                    "activates",
                    "activated",
                    "upregulate",
                    "upregulates",
                    "upregulated",
                    "up-regulates",
                    "up-regulated",
                    "accelerate",
                    "accelerates",
                    "accelerated",
                    "exacerbate",
                    "exacerbates",
                    "exacerbated",
                    "potentiate",
                    "potentiates",
                    "amplify",
                    "amplifies",
                    "higher",
                    "greater",
                    "larger",
                    "more",
                    "rise",
                    "rises",
                    "gain",
                    "gains",
                    "longer");

    /** Words that state a decrease, compared after {@link Text#stem stemming}. */
    static final Set<String> DOWN_WORDS =
            stems(
                    "decrease",
                    "decreases",
                    "decreased",
                    "decreasing",
                    "reduce",
                    "reduces",
                    "reduced",
                    "reducing",
                    "reduction",
                    "lower",
                    "lowers",
                    "lowered",
                    "diminish",
                    "diminishes",
                    "diminished",
                    "attenuate",
                    "attenuates",
                    "attenuated",
                    "inhibit",
                    "inhibits",
                    "inhibited",
                    "suppress",
                    "suppresses",
                    "suppressed",
                    "impair",
                    "impairs",
                    "impaired",
                    "downregulate",
                    "downregulates",
                    "downregulated",
                    "down-regulates",
                    "down-regulated",
                    "block",
                    "blocks",
                    "blocked",
                    "prevent",
                    "prevents",
                    "prevented",
                    "decline",
                    "declines",
                    "fall",
                    "falls",
                    "fell",
                    "less",
                    "fewer",
                    "smaller",
                    "shorter",
                    "loss",
                    "abolish",
                    "abolishes",
                    "abolished",
                    "abrogate",
                    "abrogates",
                    "abrogated",
                    "mitigate",
                    "mitigates",
                    "alleviate",
                    "alleviates",
                    "slow",
                    "slows",
                    "slowed");

    /** Words that state a relation without a direction, compared after stemming. */
    static final Set<String> ANY_WORDS =
            stems(
                    "associated",
                    "association",
                    "associations",
                    "correlated",
                    "correlates",
                    "correlation",
                    "linked",
                    "link",
                    "affect",
                    "affects",
                    "affected",
                    "effect",
                    "effects",
                    "influence",
                    "influences",
                    "influenced",
                    "alter",
                    "alters",
                    "altered",
                    "change",
                    "changes",
                    "changed",
                    "impact",
                    "impacts",
                    "modulate",
                    "modulates",
                    "modulated",
                    "regulate",
                    "regulates",
                    "regulated",
                    "predict",
                    "predicts",
                    "predicted",
                    "predictor",
                    "cause",
                    "causes",
                    "caused",
                    "contribute",
                    "contributes",
                    "related",
                    "relationship",
                    "difference",
                    "differences",
                    "differ",
                    "differs",
                    "different",
                    "risk");

    /** Words that deny an effect by themselves. */
    static final Set<String> NULL_WORDS =
            Set.of(
                    "unaffected",
                    "unchanged",
                    "unaltered",
                    "unrelated",
                    "unassociated",
                    "uncorrelated",
                    "independent",
                    "independently",
                    "insignificant",
                    "nonsignificant",
                    "non-significant");

    /** Negation cues that deny an effect word after them ("lacks" and "absent" name a thing). */
    static final Set<String> DENIALS =
            Set.of("not", "no", "never", "none", "neither", "nor", "without", "cannot", "unable");

    /** "failed to reduce" denies the reduction; "heart failure" is a noun and denies nothing. */
    static final Set<String> FAILURES = Set.of("fail", "fails", "failed", "failing");

    /** How many tokens before an effect word a denial may stand ("did not significantly alter"). */
    static final int DENIAL_WINDOW = 4;

    static final Effect NONE = new Effect(Map.of(), List.of(), Map.of(), "", Direction.ANY);

    /** The effect stated by one clause's tokens (lower-cased, in order). */
    static Effect of(List<String> tokens) {
        Map<Direction, String> mentioned = new EnumMap<>(Direction.class);
        List<Anchored> anchored = new java.util.ArrayList<>();
        Map<Direction, String> stated = new EnumMap<>(Direction.class);
        String denied = "";
        Direction deniedDirection = Direction.ANY;
        for (int i = 0; i < tokens.size(); i++) {
            String token = tokens.get(i);
            if (NULL_WORDS.contains(token)) {
                denied = denied.isEmpty() ? token : denied;
                continue;
            }
            Direction d = direction(Text.stem(token));
            if (d == null) {
                continue;
            }
            mentioned.putIfAbsent(d, token);
            String negation = denialBefore(tokens, i);
            if (negation.isEmpty()) {
                stated.putIfAbsent(d, token);
                if (d != Direction.ANY) {
                    anchored.add(new Anchored(d, token, around(tokens, i)));
                }
            } else if (denied.isEmpty()) {
                denied = negation + " " + token;
                deniedDirection = d;
            }
        }
        return copyOf(mentioned, anchored, stated, denied, deniedDirection);
    }

    private static Effect copyOf(
            Map<Direction, String> mentioned,
            List<Anchored> anchored,
            Map<Direction, String> stated,
            String denied,
            Direction deniedDirection) {
        return mentioned.isEmpty() && denied.isEmpty()
                ? NONE
                : new Effect(
                        Map.copyOf(mentioned),
                        List.copyOf(anchored),
                        Map.copyOf(stated),
                        denied,
                        deniedDirection);
    }

    /** Stems of the content words near token {@code i} that are not effect words. */
    private static Set<String> around(List<String> tokens, int i) {
        Set<String> out = new java.util.HashSet<>();
        for (int k = Math.max(0, i - ANCHOR_WINDOW);
                k < Math.min(tokens.size(), i + 1 + ANCHOR_WINDOW);
                k++) {
            String t = tokens.get(k);
            if (k != i && Text.isContent(t)) {
                String stem = Text.stem(t);
                if (direction(stem) == null) {
                    out.add(stem);
                }
            }
        }
        return Set.copyOf(out);
    }

    /** The effects of several clauses together. */
    static Effect merge(List<Effect> effects) {
        if (effects.size() == 1) {
            return effects.getFirst();
        }
        Map<Direction, String> mentioned = new EnumMap<>(Direction.class);
        List<Anchored> anchored = new java.util.ArrayList<>();
        Map<Direction, String> stated = new EnumMap<>(Direction.class);
        String denied = "";
        Direction deniedDirection = Direction.ANY;
        for (Effect e : effects) {
            e.mentioned().forEach(mentioned::putIfAbsent);
            anchored.addAll(e.anchored());
            e.stated().forEach(stated::putIfAbsent);
            if (denied.isEmpty()) {
                denied = e.denied();
                deniedDirection = e.deniedDirection();
            }
        }
        return copyOf(mentioned, anchored, stated, denied, deniedDirection);
    }

    /**
     * The opposite directions of effect this (a claim) and {@code other} (an evidence clause) state
     * about the same thing, e.g. {@code "'increases' vs 'lower'"}, or empty. Each increase or
     * decrease of the claim is compared with the other side's increases and decreases about the
     * same object (sharing a content word around them: "increases the risk" with "lower risk"); a
     * sentence naming both directions ("greater intake, lower risk") disagrees only about the
     * object it names the opposite for. Without such an anchor, a claim stating one direction
     * disagrees with a clause stating only the other. Denied words state nothing: "did not
     * decrease" is not an increase.
     */
    String opposes(Effect other) {
        boolean anyAnchor = false;
        for (Anchored mine : anchored) {
            // the other side's increases and decreases about the most of what this one is about
            int most = 0;
            boolean same = false;
            String opposite = "";
            for (Anchored theirs : other.anchored()) {
                int shared = (int) theirs.around().stream().filter(mine.around()::contains).count();
                if (shared == 0 || shared < most) {
                    continue;
                }
                if (shared > most) {
                    most = shared;
                    same = false;
                    opposite = "";
                }
                anyAnchor = true;
                if (theirs.direction() == mine.direction()) {
                    same = true;
                } else if (opposite.isEmpty()) {
                    opposite = theirs.word();
                }
            }
            if (!opposite.isEmpty() && !same) {
                return "'" + mine.word() + "' vs '" + opposite + "'";
            }
        }
        if (anyAnchor) {
            return "";
        }
        for (Direction d : new Direction[] {Direction.UP, Direction.DOWN}) {
            Direction opposite = opposite(d);
            if (stated.containsKey(d)
                    && !stated.containsKey(opposite)
                    && other.stated().containsKey(opposite)
                    && !other.stated().containsKey(d)) {
                return "'" + stated.get(d) + "' vs '" + other.stated().get(opposite) + "'";
            }
        }
        return "";
    }

    /**
     * Whether one side denies a direction the other states the opposite of: "did not decrease"
     * against "increased", a negation that agrees.
     */
    boolean deniesTheOppositeOf(Effect other) {
        return opposed(other.stated(), deniedDirection) || opposed(stated, other.deniedDirection());
    }

    /**
     * Why a sentence stating {@code other} contradicts a claim stating this effect, or empty: one
     * side states an effect and denies none, the other only denies one ("associated" vs "no
     * association", "increases" vs "did not change"). Denying the opposite direction is agreement:
     * "did not decrease" does not contradict "increased".
     */
    String conflictWith(Effect other) {
        if (statesOnly() && other.deniesOnly() && !opposed(stated, other.deniedDirection())) {
            return "'" + stated.values().iterator().next() + "' vs '" + other.denied() + "'";
        }
        if (deniesOnly() && other.statesOnly() && !opposed(other.stated(), deniedDirection)) {
            return "'" + denied + "' vs '" + other.stated().values().iterator().next() + "'";
        }
        return "";
    }

    private boolean statesOnly() {
        return !stated.isEmpty() && denied.isEmpty();
    }

    private boolean deniesOnly() {
        return stated.isEmpty() && !denied.isEmpty();
    }

    /** Whether the directions stated are all the opposite of {@code denied}. */
    private static boolean opposed(Map<Direction, String> stated, Direction denied) {
        return denied != Direction.ANY
                && stated.containsKey(opposite(denied))
                && !stated.containsKey(denied);
    }

    private static Direction opposite(Direction d) {
        return switch (d) {
            case UP -> Direction.DOWN;
            case DOWN -> Direction.UP;
            case ANY -> Direction.ANY;
        };
    }

    private static Direction direction(String stem) {
        if (UP_WORDS.contains(stem)) {
            return Direction.UP;
        }
        if (DOWN_WORDS.contains(stem)) {
            return Direction.DOWN;
        }
        return ANY_WORDS.contains(stem) ? Direction.ANY : null;
    }

    /** The denial within {@link #DENIAL_WINDOW} tokens before {@code i}, or empty. */
    private static String denialBefore(List<String> tokens, int i) {
        for (int k = i - 1; k >= Math.max(0, i - DENIAL_WINDOW); k--) {
            String t = tokens.get(k);
            boolean denial =
                    DENIALS.contains(t)
                            || (t.endsWith("n't") && !t.equals("n't"))
                            || FAILURES.contains(t);
            if (denial) {
                // "not only increases" states the increase
                return k + 1 < tokens.size() && tokens.get(k + 1).equals("only") ? "" : t;
            }
        }
        return "";
    }

    private static Set<String> stems(String... words) {
        return Stream.of(words).map(Text::stem).collect(Collectors.toUnmodifiableSet());
    }
}
