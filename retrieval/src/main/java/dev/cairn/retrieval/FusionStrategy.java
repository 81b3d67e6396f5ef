package dev.cairn.retrieval;

import dev.cairn.retrieval.fusion.Fusion;
import java.util.Locale;

/** How a retrieve call fuses its signals; selectable per request. */
public enum FusionStrategy {
    /** Weighted reciprocal-rank fusion, {@link Fusion#weightedRrf(int)}. */
    RRF,
    /**
     * Weighted RRF with the lexical weight scaled per query by BM25's own decisiveness, {@link
     * Fusion#adaptiveRrf(int)}.
     */
    ADAPTIVE,
    /** Convex combination of normalised scores, {@link Fusion#convex()}. */
    CONVEX;

    /**
     * The default: adaptive RRF, above both single signals on both halves of SciFact train where
     * plain RRF fell below dense on the half the adaptive form was not chosen on (weighted RRF in
     * turn beat the convex combination; docs/retrieval.md has the numbers).
     */
    public static final FusionStrategy DEFAULT = ADAPTIVE;

    public static FusionStrategy parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unknown fusion: '" + name + "', must be one of rrf, adaptive, convex");
        }
    }

    Fusion fusion(int k) {
        return switch (this) {
            case RRF -> Fusion.weightedRrf(k);
            case ADAPTIVE -> Fusion.adaptiveRrf(k);
            case CONVEX -> Fusion.convex();
        };
    }
}
