package dev.cairn.retrieval.dense;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link OrderedDot}'s order with the Vector API: the 64 partial sums are four 16-lane or eight
 * 8-lane accumulators, folded with lane-wise adds; the tail goes in with masked multiply-adds and
 * the last 16 lanes are folded by adding each vector to a copy of itself shifted by 8, 4, 2 and 1
 * lanes. Nothing is allocated (an array of 16 partial sums was: 80 bytes a product, young
 * collections every few scans). Needs {@code jdk.incubator.vector}; without it this class cannot
 * load and OrderedDot runs its scalar loop.
 */
final class VectorOrderedDot {

    private static final VectorSpecies<Float> WIDE = FloatVector.SPECIES_512;
    private static final VectorSpecies<Float> NARROW = FloatVector.SPECIES_256;
    private static final int WIDTH = FloatVector.SPECIES_PREFERRED.length();

    private static final VectorShuffle<Float> WIDE_BY_8 = shift(WIDE, 8);
    private static final VectorShuffle<Float> WIDE_BY_4 = shift(WIDE, 4);
    private static final VectorShuffle<Float> WIDE_BY_2 = shift(WIDE, 2);
    private static final VectorShuffle<Float> WIDE_BY_1 = shift(WIDE, 1);
    private static final VectorShuffle<Float> NARROW_BY_4 = shift(NARROW, 4);
    private static final VectorShuffle<Float> NARROW_BY_2 = shift(NARROW, 2);
    private static final VectorShuffle<Float> NARROW_BY_1 = shift(NARROW, 1);

    private VectorOrderedDot() {}

    /** Whether this vector unit has a shape written here: 16 or 8 float lanes. */
    static boolean supported() {
        return WIDTH == 16 || WIDTH == 8;
    }

    static float dot(float[] a, float[] b) {
        return WIDTH == 16 ? dot16(a, b) : dot8(a, b);
    }

    /** The 16-lane shape; runs (slowly) on any machine, which is what its test needs. */
    static float dot16(float[] a, float[] b) {
        int whole = a.length - a.length % OrderedDot.LANES;
        FloatVector s0 = FloatVector.zero(WIDE);
        FloatVector s1 = s0;
        FloatVector s2 = s0;
        FloatVector s3 = s0;
        for (int i = 0; i < whole; i += OrderedDot.LANES) {
            s0 = FloatVector.fromArray(WIDE, a, i).fma(FloatVector.fromArray(WIDE, b, i), s0);
            s1 =
                    FloatVector.fromArray(WIDE, a, i + 16)
                            .fma(FloatVector.fromArray(WIDE, b, i + 16), s1);
            s2 =
                    FloatVector.fromArray(WIDE, a, i + 32)
                            .fma(FloatVector.fromArray(WIDE, b, i + 32), s2);
            s3 =
                    FloatVector.fromArray(WIDE, a, i + 48)
                            .fma(FloatVector.fromArray(WIDE, b, i + 48), s3);
        }
        // 64 -> 32 lanes: j + (j + 32); 32 -> 16: j + (j + 16)
        FloatVector s = s0.add(s2).add(s1.add(s3));
        for (int i = whole; i < a.length; i += 16) {
            s = fmaTail(WIDE, a, b, i, s);
        }
        s = s.add(s.rearrange(WIDE_BY_8));
        s = s.add(s.rearrange(WIDE_BY_4));
        s = s.add(s.rearrange(WIDE_BY_2));
        return s.add(s.rearrange(WIDE_BY_1)).lane(0);
    }

    /** The 8-lane shape; runs on any machine. */
    static float dot8(float[] a, float[] b) {
        int whole = a.length - a.length % OrderedDot.LANES;
        FloatVector s0 = FloatVector.zero(NARROW);
        FloatVector s1 = s0;
        FloatVector s2 = s0;
        FloatVector s3 = s0;
        FloatVector s4 = s0;
        FloatVector s5 = s0;
        FloatVector s6 = s0;
        FloatVector s7 = s0;
        for (int i = 0; i < whole; i += OrderedDot.LANES) {
            s0 = FloatVector.fromArray(NARROW, a, i).fma(FloatVector.fromArray(NARROW, b, i), s0);
            s1 =
                    FloatVector.fromArray(NARROW, a, i + 8)
                            .fma(FloatVector.fromArray(NARROW, b, i + 8), s1);
            s2 =
                    FloatVector.fromArray(NARROW, a, i + 16)
                            .fma(FloatVector.fromArray(NARROW, b, i + 16), s2);
            s3 =
                    FloatVector.fromArray(NARROW, a, i + 24)
                            .fma(FloatVector.fromArray(NARROW, b, i + 24), s3);
            s4 =
                    FloatVector.fromArray(NARROW, a, i + 32)
                            .fma(FloatVector.fromArray(NARROW, b, i + 32), s4);
            s5 =
                    FloatVector.fromArray(NARROW, a, i + 40)
                            .fma(FloatVector.fromArray(NARROW, b, i + 40), s5);
            s6 =
                    FloatVector.fromArray(NARROW, a, i + 48)
                            .fma(FloatVector.fromArray(NARROW, b, i + 48), s6);
            s7 =
                    FloatVector.fromArray(NARROW, a, i + 56)
                            .fma(FloatVector.fromArray(NARROW, b, i + 56), s7);
        }
        // 64 -> 32 lanes: j + (j + 32); 32 -> 16: j + (j + 16); lanes 0-7 in low, 8-15 in high
        FloatVector low = s0.add(s4).add(s2.add(s6));
        FloatVector high = s1.add(s5).add(s3.add(s7));
        for (int i = whole; i < a.length; i += 16) {
            low = fmaTail(NARROW, a, b, i, low);
            high = fmaTail(NARROW, a, b, i + 8, high);
        }
        FloatVector s = low.add(high);
        s = s.add(s.rearrange(NARROW_BY_4));
        s = s.add(s.rearrange(NARROW_BY_2));
        return s.add(s.rearrange(NARROW_BY_1)).lane(0);
    }

    /** Adds {@code a[i..] * b[i..]} into {@code sums} lane by lane, as far as the arrays go. */
    private static FloatVector fmaTail(
            VectorSpecies<Float> species, float[] a, float[] b, int i, FloatVector sums) {
        VectorMask<Float> in = species.indexInRange(i, a.length);
        FloatVector products =
                FloatVector.fromArray(species, a, i, in)
                        .fma(FloatVector.fromArray(species, b, i, in), sums);
        // lanes past the end keep their sum as it was (fma(0, 0, -0.0) would make it +0.0)
        return sums.blend(products, in);
    }

    /**
     * Lane {@code j} takes lane {@code j + by}; lanes past the end wrap (their sums are unused).
     */
    private static VectorShuffle<Float> shift(VectorSpecies<Float> species, int by) {
        return VectorShuffle.fromOp(species, j -> (j + by) % species.length());
    }
}
