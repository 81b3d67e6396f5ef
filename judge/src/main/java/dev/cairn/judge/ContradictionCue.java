package dev.cairn.judge;

import java.util.EnumSet;
import java.util.Set;

/**
 * The cues that make an otherwise matching evidence sentence contradict a claim. All are on by
 * default ({@link JudgeConfig#cues()}); switching one off is how each is measured (docs/judge.md).
 */
public enum ContradictionCue {
    /** One side negates what the other states: "is not enabled" vs "is enabled". */
    NEGATION,
    /** A pair of opposite words from a fixed list: enable/disable, before/after. */
    ANTONYM,
    /** A different number, date or version in the same context. */
    QUANTITY,
    /** Opposite directions of effect on the aligned clause: "reduces" vs "increased". */
    DIRECTION,
    /** An effect stated against one denied: "is associated with" vs "no association". */
    EFFECT_DENIAL,
    /** All or most against some or few: "all patients" vs "a subset of patients". */
    QUANTIFIER;

    /** Every cue. */
    public static final Set<ContradictionCue> ALL =
            java.util.Collections.unmodifiableSet(EnumSet.allOf(ContradictionCue.class));
}
