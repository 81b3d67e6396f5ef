package dev.cairn.retrieval;

import dev.cairn.retrieval.fusion.Fusion;
import java.util.Locale;

/** How a retrieve call fuses its signals; selectable per request. */
public enum FusionStrategy {
    /** Weighted reciprocal-rank fusion, {@link Fusion#weightedRrf(int)}. */
    RRF,
    /** Convex combination of normalised scores, {@link Fusion#convex()}. */
    CONVEX;

    /**
     * The default: weighted RRF, which beat the convex combination on SciFact train (see the
     * README's retrieval section for the numbers).
     */
    public static final FusionStrategy DEFAULT = RRF;

    public static FusionStrategy parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unknown fusion: '" + name + "', must be one of rrf, convex");
        }
    }

    Fusion fusion(int k) {
        return this == RRF ? Fusion.weightedRrf(k) : Fusion.convex();
    }
}
