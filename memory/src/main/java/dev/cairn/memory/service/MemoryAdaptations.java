package dev.cairn.memory.service;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.memory.Memory;
import dev.cairn.memory.ScoredMemory;
import dev.cairn.retrieval.feedback.ActiveAdaptations;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.AdaptationStore;
import dev.cairn.retrieval.feedback.FeedbackLog;
import dev.cairn.retrieval.feedback.JudgedPrior;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.retrieval.feedback.LearnedFusion;
import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.retrieval.feedback.Tuner;
import dev.cairn.retrieval.fusion.FusedCandidate;
import dev.cairn.store.Namespace;
import dev.cairn.store.Store;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Recall's adaptations: what a namespace's memory judgments ({@code POST feedback} with a {@code
 * memoryId}, e.g. the console's thumbs on recalled memories) teach its recall, by the same {@link
 * Tuner} and activation rule as retrieve's (issue 42). A version maps the query vector before the
 * memories' dense scan, scales the hybrid mix's dense weight and lifts the memories training
 * queries judged relevant ({@link dev.cairn.memory.RecallBoost#JUDGED}). A namespace without an
 * active version recalls exactly as it does without judgments. Thread-safe.
 */
final class MemoryAdaptations {

    private final Store store;
    private final AdaptationStore adaptations;
    private final ActiveAdaptations active;
    private final Tuner tuner;

    MemoryAdaptations(
            Store store, EmbeddingModel model, MemoryRecall recall, MemoryIndexes indexes) {
        this.store = store;
        this.adaptations = AdaptationStore.memories(store.sql());
        this.active = new ActiveAdaptations(adaptations);
        this.tuner =
                new Tuner(
                        model,
                        new FeedbackLog(store.sql()),
                        adaptations,
                        new MemorySubject(recall, indexes));
    }

    /** How a recall of the namespace applies its active version (read within a few seconds). */
    MemoryRecall.Adapting active(String namespace) {
        return MemoryRecall.Adapting.of(active.of(namespace));
    }

    /** The namespaces' recall adaptations (read them; change them through {@link #tune}). */
    AdaptationStore store() {
        return adaptations;
    }

    /** Trains a version from the namespace's memory judgments and activates it if it wins. */
    Adaptation tune(String namespace, TuneOptions options) {
        store.changeLog().catchUpIfBehind();
        try {
            return tuner.tune(namespace, options);
        } finally {
            active.forget(namespace);
        }
    }

    /** Rolls the active version back to the one it replaced (or to none). */
    Optional<Adaptation> rollback(String namespace) {
        try {
            return adaptations.rollback(namespace);
        } finally {
            active.forget(namespace);
        }
    }

    /** What recall's adaptation ranks: memories, each its own unit with its own vector. */
    private record MemorySubject(MemoryRecall recall, MemoryIndexes indexes)
            implements Tuner.Subject {

        @Override
        public Optional<String> key(Judgment.Target target) {
            return target.kind() == Judgment.Kind.MEMORY
                    ? Optional.of(target.id())
                    : Optional.empty();
        }

        @Override
        public Map<String, float[]> unitsOf(String namespace, String memoryId) {
            return vectors(namespace, Set.of(memoryId));
        }

        @Override
        public Map<String, float[]> vectors(String namespace, Collection<String> memoryIds) {
            Map<String, MemoryIndexes.Entry> table = indexes.table(namespace);
            Map<String, float[]> out = new HashMap<>();
            for (String id : memoryIds) {
                MemoryIndexes.Entry e = table.get(id);
                if (e != null && e.memory().recallable() && e.vector().length > 0) {
                    out.put(id, e.vector());
                }
            }
            return out;
        }

        @Override
        public String keyOf(String memoryId) {
            return memoryId;
        }

        @Override
        public List<String> candidates(String namespace, String query, float[] vector) {
            List<String> ids = new ArrayList<>();
            recall.nearest(
                            vector,
                            indexes.table(namespace),
                            indexes.windowed(namespace),
                            Memory::recallable,
                            Tuner.DENSE_NEGATIVES)
                    .entries()
                    .forEach(e -> ids.add(e.id()));
            ids.addAll(
                    ranked(
                            namespace,
                            query,
                            RecallMode.LEXICAL,
                            MemoryRecall.Adapting.NONE,
                            Tuner.LEXICAL_NEGATIVES));
            return ids;
        }

        /** None: recall mixes its signals by relevance, not by a fusion of ranks to learn. */
        @Override
        public List<FusedCandidate> fused(
                String namespace, String query, float[] vector, int depth) {
            return List.of();
        }

        /** {@code fusion} is always {@link LearnedFusion#NONE} here ({@link #fused} is empty). */
        @Override
        public List<String> rank(
                String namespace,
                String query,
                float[] vector,
                double denseWeight,
                JudgedPrior prior,
                LearnedFusion fusion,
                int depth) {
            return ranked(
                    namespace,
                    query,
                    RecallMode.HYBRID,
                    new MemoryRecall.Adapting(null, vector, denseWeight, prior, 0),
                    depth);
        }

        /** The ids of a whole-namespace recall, best first, recorded nowhere. */
        private List<String> ranked(
                String namespace,
                String query,
                RecallMode mode,
                MemoryRecall.Adapting adapting,
                int depth) {
            RecallRequest request =
                    new RecallRequest(
                            namespace,
                            query,
                            "",
                            "",
                            Math.min(depth, RecallRequest.MAX_LIMIT),
                            RecallRequest.DEFAULT_THRESHOLD,
                            0,
                            Set.of(),
                            Set.of(),
                            RecallRequest.MAX_TIMEOUT,
                            mode,
                            Optional.of(Namespace.RecallScope.NAMESPACE));
            return recall.recall(request, adapting, false).memories().stream()
                    .map(ScoredMemory::id)
                    .toList();
        }

        @Override
        public String judgedNoun() {
            return "memory";
        }
    }
}
