package dev.cairn.retrieval.feedback;

import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each namespace's active adaptation as retrieve (or recall) applies it, read from its {@link
 * AdaptationStore} and kept for {@link #RECHECK}: a search asks the store at most once per
 * namespace in that time, and then only for the active version number, so another server's training
 * or rollback is seen within it. Thread-safe.
 */
public final class ActiveAdaptations {

    /**
     * How long a namespace's active adaptation is taken as known before the store is asked again
     * (by version only): another server's training or rollback is seen within this time.
     */
    public static final Duration RECHECK = Duration.ofSeconds(5);

    /**
     * A namespace's active adaptation as last read: version 0, no adapter, no prior and no learned
     * fusion when none.
     */
    public record Active(
            int version,
            QueryAdapter adapter,
            double denseWeight,
            JudgedPrior prior,
            LearnedFusion fusion,
            long checkedNanos) {

        /** {@code weights} with the dense weight scaled by the adaptation's factor. */
        public SignalWeights apply(SignalWeights weights) {
            if (version == 0 || denseWeight == 1) {
                return weights;
            }
            return weights.scaled(Signal.DENSE, denseWeight);
        }

        /** What an answer ranked under this adaptation, with its learned fusion or not, says. */
        public AppliedAdaptation applied(boolean learnedFusion) {
            return AppliedAdaptation.of(version, denseWeight, prior, learnedFusion);
        }
    }

    private final AdaptationStore adaptations;
    private final Map<String, Active> known = new ConcurrentHashMap<>();

    public ActiveAdaptations(AdaptationStore adaptations) {
        this.adaptations = adaptations;
    }

    /** The namespace's active adaptation, from what was read within {@link #RECHECK}. */
    public Active of(String namespace) {
        long now = System.nanoTime();
        Active last = known.get(namespace);
        if (last != null && now - last.checkedNanos() < RECHECK.toNanos()) {
            return last;
        }
        int version = adaptations.activeVersion(namespace);
        Active fresh;
        if (last != null && last.version() == version) {
            fresh =
                    new Active(
                            version,
                            last.adapter(),
                            last.denseWeight(),
                            last.prior(),
                            last.fusion(),
                            now);
        } else if (version == 0) {
            fresh = new Active(0, null, 1, JudgedPrior.NONE, LearnedFusion.NONE, now);
        } else {
            fresh =
                    adaptations
                            .active(namespace)
                            .map(
                                    a ->
                                            new Active(
                                                    a.version(),
                                                    a.adapter(),
                                                    a.denseWeight(),
                                                    a.prior(),
                                                    a.fusion(),
                                                    now))
                            .orElseGet(
                                    () ->
                                            new Active(
                                                    0,
                                                    null,
                                                    1,
                                                    JudgedPrior.NONE,
                                                    LearnedFusion.NONE,
                                                    now));
        }
        known.put(namespace, fresh);
        return fresh;
    }

    /** Forgets what was read for the namespace: this server just changed its adaptation. */
    public void forget(String namespace) {
        known.remove(namespace);
    }
}
