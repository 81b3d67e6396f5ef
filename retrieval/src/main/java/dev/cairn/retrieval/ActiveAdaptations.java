package dev.cairn.retrieval;

import dev.cairn.retrieval.feedback.AdaptationStore;
import dev.cairn.retrieval.feedback.JudgedPrior;
import dev.cairn.retrieval.feedback.QueryAdapter;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each namespace's active adaptation as retrieve applies it, read from the {@link AdaptationStore}
 * and kept for {@link #RECHECK}: a retrieve asks the store at most once per namespace in that time,
 * and then only for the active version number, so another server's training or rollback is seen
 * within it. Thread-safe.
 */
final class ActiveAdaptations {

    /**
     * How long a namespace's active adaptation is taken as known before the store is asked again
     * (by version only): another server's training or rollback is seen within this time.
     */
    static final Duration RECHECK = Duration.ofSeconds(5);

    /**
     * A namespace's active adaptation as last read: version 0, no adapter and no prior when none.
     */
    record Active(
            int version,
            QueryAdapter adapter,
            double denseWeight,
            JudgedPrior prior,
            long checkedNanos) {

        /** {@code weights} with the dense weight scaled by the adaptation's factor. */
        SignalWeights apply(SignalWeights weights) {
            if (version == 0 || denseWeight == 1) {
                return weights;
            }
            return weights.scaled(Signal.DENSE, denseWeight);
        }
    }

    private final AdaptationStore adaptations;
    private final Map<String, Active> known = new ConcurrentHashMap<>();

    ActiveAdaptations(AdaptationStore adaptations) {
        this.adaptations = adaptations;
    }

    /** The namespace's active adaptation, from what was read within {@link #RECHECK}. */
    Active of(String namespace) {
        long now = System.nanoTime();
        Active last = known.get(namespace);
        if (last != null && now - last.checkedNanos() < RECHECK.toNanos()) {
            return last;
        }
        int version = adaptations.activeVersion(namespace);
        Active fresh;
        if (last != null && last.version() == version) {
            fresh = new Active(version, last.adapter(), last.denseWeight(), last.prior(), now);
        } else if (version == 0) {
            fresh = new Active(0, null, 1, JudgedPrior.NONE, now);
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
                                                    now))
                            .orElseGet(() -> new Active(0, null, 1, JudgedPrior.NONE, now));
        }
        known.put(namespace, fresh);
        return fresh;
    }

    /** Forgets what was read for the namespace: this server just changed its adaptation. */
    void forget(String namespace) {
        known.remove(namespace);
    }
}
