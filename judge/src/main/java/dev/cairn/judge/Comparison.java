package dev.cairn.judge;

import java.util.List;
import java.util.Set;

/**
 * How one claim compares with one evidence sentence: the signals that support and contradiction
 * decisions are made of. Stateless and thread-safe.
 *
 * @param similarity from the {@link SimilarityFunction}, in [0, 1]
 * @param overlap share of the claim's content words found in the sentence, in [0, 1]
 * @param score {@code w * similarity + (1 - w) * overlap}
 * @param negationMismatch exactly one of claim and sentence is negated
 * @param antonym the antonym pair that separates them, e.g. {@code "enable/disable"}; empty when
 *     none
 * @param direction the opposite directions of effect they state about the same thing on the
 *     sentence's clauses aligned with the claim, e.g. {@code "'reduces' vs 'increased'"}; empty
 *     when none
 * @param effectConflict one side states an effect the other only denies, e.g. {@code "'associated'
 *     vs 'not associated'"}; empty when none
 * @param quantifierConflict the claim speaks for all or most and the sentence for some or few, e.g.
 *     {@code "'all' vs 'some'"}; empty when none
 * @param quantityConflict the first claim quantity that disagrees with a quantity of the same kind
 *     in a matching context, e.g. {@code "number 500 vs 100"}; empty when none
 * @param actionConflict the operational actions that separate them when each names one the other
 *     does not, e.g. {@code "restart vs reload"}: different actions on the same object are not the
 *     same instruction however alike the sentences read; empty when none
 */
record Comparison(
        double similarity,
        double overlap,
        double score,
        boolean negationMismatch,
        String antonym,
        String direction,
        String effectConflict,
        String quantifierConflict,
        String quantityConflict,
        String actionConflict) {

    /**
     * Antonym pairs, compared after {@link Text#stem stemming}. Directions of effect (increase,
     * reduce, inhibit, ...) are {@link Effect}'s, compared on the clauses that align.
     */
    static final List<String[]> ANTONYMS =
            List.of(
                    pair("high", "low"),
                    pair("faster", "slower"),
                    pair("better", "worse"),
                    pair("superior", "inferior"),
                    pair("outperform", "underperform"),
                    pair("improve", "worsen"),
                    pair("maximum", "minimum"),
                    pair("enable", "disable"),
                    pair("enabled", "disabled"),
                    pair("activate", "deactivate"),
                    pair("allow", "deny"),
                    pair("allow", "block"),
                    pair("allow", "forbid"),
                    pair("permit", "forbid"),
                    pair("accept", "reject"),
                    pair("start", "stop"),
                    pair("before", "after"),
                    pair("above", "below"),
                    pair("add", "remove"),
                    pair("include", "exclude"),
                    pair("open", "close"),
                    pair("true", "false"),
                    pair("success", "failure"),
                    pair("succeed", "fail"),
                    pair("pass", "fail"),
                    pair("positive", "negative"),
                    pair("present", "absent"),
                    pair("synchronous", "asynchronous"),
                    pair("public", "private"),
                    pair("online", "offline"),
                    pair("encrypted", "unencrypted"),
                    pair("valid", "invalid"),
                    pair("required", "optional"),
                    pair("mandatory", "optional"),
                    pair("supported", "unsupported"),
                    pair("lock", "unlock"),
                    pair("connect", "disconnect"),
                    pair("install", "uninstall"),
                    pair("early", "late"),
                    pair("first", "last"),
                    pair("benefit", "harm"),
                    pair("beneficial", "harmful"),
                    pair("safe", "unsafe"),
                    pair("inside", "outside"),
                    pair("win", "lose"));

    /**
     * Operational actions a runbook step names, compared after {@link Text#stem stemming}. Only
     * words that name an operation on a system: scientific prose (the SciFact calibration) hardly
     * uses them, so they change no verdict there.
     */
    static final Set<String> ACTIONS =
            java.util.stream.Stream.of(
                            "restart",
                            "reload",
                            "reboot",
                            "shutdown",
                            "kill",
                            "terminate",
                            "delete",
                            "drop",
                            "truncate",
                            "deploy",
                            "redeploy",
                            "rollback",
                            "revert",
                            "scale",
                            "drain",
                            "cordon",
                            "uncordon",
                            "upgrade",
                            "downgrade",
                            "restore",
                            "backup",
                            "rotate",
                            "revoke",
                            "purge",
                            "flush",
                            "reindex",
                            "failover",
                            "suspend",
                            "resume",
                            "pause",
                            "archive",
                            "rebuild",
                            "reinstall")
                    .map(Text::stem)
                    .collect(java.util.stream.Collectors.toUnmodifiableSet());

    /** Every stem that appears in an antonym pair. */
    static final Set<String> POLAR_STEMS =
            ANTONYMS.stream()
                    .flatMap(p -> java.util.stream.Stream.of(p[0], p[1]))
                    .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private static String[] pair(String a, String b) {
        return new String[] {Text.stem(a), Text.stem(b), a + "/" + b};
    }

    /** Whether claim and sentence state opposite polarity: negation XOR antonym. */
    boolean polarityMismatch() {
        return negationMismatch ^ !antonym.isEmpty();
    }

    /** Whether the sentence states something the claim's cues say it cannot both be true with. */
    boolean cueConflict() {
        return polarityMismatch()
                || !direction.isEmpty()
                || !effectConflict.isEmpty()
                || !quantifierConflict.isEmpty();
    }

    /** Compares claim and sentence, given their similarity, with every cue. */
    static Comparison of(
            Statement claim, Statement sentence, double similarity, double similarityWeight) {
        return of(claim, sentence, similarity, similarityWeight, ContradictionCue.ALL);
    }

    /** Compares claim and sentence, given their similarity, with the given cues only. */
    static Comparison of(
            Statement claim,
            Statement sentence,
            double similarity,
            double similarityWeight,
            Set<ContradictionCue> cues) {
        double overlap = overlap(claim.stems(), sentence.stems());
        double score = similarityWeight * similarity + (1 - similarityWeight) * overlap;
        List<Statement.Clause> aligned = sentence.alignedWith(claim.stems());
        Effect claimEffect = claim.effect();
        Effect sentenceEffect =
                Effect.merge(aligned.stream().map(Statement.Clause::effect).toList());
        // "does not decrease" against "increases" is a negation that agrees
        boolean negationMismatch =
                cues.contains(ContradictionCue.NEGATION)
                        && claim.negatedNear(sentence.stems())
                                != Statement.negatedNear(aligned, claim.stems())
                        && !claimEffect.deniesTheOppositeOf(sentenceEffect);
        String antonym =
                !cues.contains(ContradictionCue.ANTONYM)
                                || (claim.polar().isEmpty() && sentence.polar().isEmpty())
                        ? ""
                        : antonym(claim.stems(), sentence.stems());
        String direction = "";
        String effectConflict = "";
        String quantifierConflict = "";
        if (!aligned.isEmpty()) {
            if (cues.contains(ContradictionCue.DIRECTION)) {
                direction = claimEffect.opposes(sentenceEffect);
            }
            if (cues.contains(ContradictionCue.EFFECT_DENIAL)) {
                effectConflict = claimEffect.conflictWith(sentenceEffect);
            }
            if (cues.contains(ContradictionCue.QUANTIFIER)) {
                quantifierConflict =
                        Quantifier.conflict(
                                claim.quantifiers(),
                                Quantifier.merge(
                                        aligned.stream()
                                                .map(Statement.Clause::quantifiers)
                                                .toList()));
            }
        }
        return new Comparison(
                similarity,
                overlap,
                score,
                negationMismatch,
                antonym,
                direction,
                effectConflict,
                quantifierConflict,
                cues.contains(ContradictionCue.QUANTITY)
                        ? quantityConflict(claim.quantities(), sentence.quantities())
                        : "",
                actionConflict(claim.stems(), sentence.stems()));
    }

    /**
     * "restart vs reload" when the claim names an action the sentence does not and the sentence
     * names one the claim does not; a claim that names several steps is not in conflict with a
     * sentence that names one of them.
     */
    static String actionConflict(Set<String> claimStems, Set<String> sentenceStems) {
        String claimOnly = firstAction(claimStems, sentenceStems);
        String sentenceOnly = firstAction(sentenceStems, claimStems);
        return claimOnly.isEmpty() || sentenceOnly.isEmpty()
                ? ""
                : claimOnly + " vs " + sentenceOnly;
    }

    private static String firstAction(Set<String> stems, Set<String> other) {
        return stems.stream()
                .filter(ACTIONS::contains)
                .filter(a -> !other.contains(a))
                .sorted()
                .findFirst()
                .orElse("");
    }

    static double overlap(Set<String> claimStems, Set<String> sentenceStems) {
        if (claimStems.isEmpty()) {
            return 0.0;
        }
        int shared = 0;
        for (String s : claimStems) {
            if (sentenceStems.contains(s)) {
                shared++;
            }
        }
        return (double) shared / claimStems.size();
    }

    private static String antonym(Set<String> c, Set<String> e) {
        for (String[] p : ANTONYMS) {
            if ((c.contains(p[0]) && e.contains(p[1]) && !c.contains(p[1]) && !e.contains(p[0]))
                    || (c.contains(p[1])
                            && e.contains(p[0])
                            && !c.contains(p[0])
                            && !e.contains(p[1]))) {
                return p[2];
            }
        }
        return "";
    }

    /** Whether two quantities state the same value (a date matches a more precise one). */
    static boolean sameValue(Quantities.Quantity a, Quantities.Quantity b) {
        if (a.kind() != b.kind()) {
            return false;
        }
        if (a.kind() == Quantities.Kind.DATE) {
            return a.value().startsWith(b.value()) || b.value().startsWith(a.value());
        }
        return a.value().equals(b.value());
    }

    /** Whether {@code q} is stated in {@code quantities}. */
    static boolean stated(Quantities.Quantity q, List<Quantities.Quantity> quantities) {
        for (Quantities.Quantity r : quantities) {
            if (sameValue(q, r)) {
                return true;
            }
        }
        return false;
    }

    private static String prefix(String namedNumber) {
        return namedNumber.substring(0, namedNumber.indexOf(' '));
    }

    private static String quantityConflict(
            List<Quantities.Quantity> claim, List<Quantities.Quantity> sentence) {
        for (Quantities.Quantity q : claim) {
            if (stated(q, sentence)) {
                continue;
            }
            for (Quantities.Quantity r : sentence) {
                if (r.kind() != q.kind()) {
                    continue;
                }
                boolean sharedContext =
                        q.kind() == Quantities.Kind.NAMED_NUMBER
                                ? prefix(q.value()).equals(prefix(r.value()))
                                : r.context().stream().anyMatch(q.context()::contains);
                if (sharedContext) {
                    return q.kind() == Quantities.Kind.NAMED_NUMBER
                            ? "number " + q.value() + " vs " + r.value()
                            : q.kind().name().toLowerCase(java.util.Locale.ROOT)
                                    + " "
                                    + q.surface()
                                    + " vs "
                                    + r.surface();
                }
            }
        }
        return "";
    }
}
