package dev.cairn.store.vector;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The best {@code k} of a stream of scored ids, by {@link VectorHit#BEST_FIRST}: higher score, then
 * the smaller id. The outcome does not depend on the order of the offers or on how the stream was
 * split across {@link #merge}d collectors, so a parallel scan answers as a sequential one.
 *
 * <p>Not thread-safe: one collector per thread, merged at the end.
 */
final class TopK {

    /** Worst first: the lower score, then the larger id, sits at the head to be replaced. */
    private static final java.util.Comparator<VectorHit> WORST_FIRST =
            (a, b) -> VectorHit.BEST_FIRST.compare(b, a);

    private final int k;
    private final PriorityQueue<VectorHit> worstFirst;

    /**
     * @param k how many to keep, {@code >= 1}
     */
    public TopK(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("illegal k: " + k + ", must be >= 1");
        }
        this.k = k;
        this.worstFirst = new PriorityQueue<>(Math.min(k, 1024) + 1, WORST_FIRST);
    }

    /** Keeps {@code id} when it is among the best {@code k} so far. */
    public void offer(String id, double score) {
        if (worstFirst.size() < k) {
            worstFirst.add(new VectorHit(id, score));
            return;
        }
        VectorHit worst = worstFirst.peek();
        // compared before allocating: most offers of a large scan lose
        if (score > worst.score() || (score == worst.score() && id.compareTo(worst.id()) < 0)) {
            worstFirst.poll();
            worstFirst.add(new VectorHit(id, score));
        }
    }

    /** Offers every hit of {@code other} here; returns this collector. */
    public TopK merge(TopK other) {
        for (VectorHit hit : other.worstFirst) {
            offer(hit.id(), hit.score());
        }
        return this;
    }

    /** The kept hits, best first. */
    public List<VectorHit> best() {
        List<VectorHit> out = new ArrayList<>(worstFirst);
        out.sort(VectorHit.BEST_FIRST);
        return out;
    }
}
