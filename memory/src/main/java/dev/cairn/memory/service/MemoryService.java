package dev.cairn.memory.service;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.memory.Memory;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.StatusTransition;
import dev.cairn.memory.store.MemoryFilter;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.AdaptationStore;
import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.retrieval.feedback.Tuner;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.safety.WriteBlockedException;
import dev.cairn.safety.WriteGuard;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Typed agent memory over a {@link Store}: writes through write safety, redaction, de-duplication
 * and supersession; reads; status changes; hybrid recall; scheduled maintenance. Implementations
 * are thread-safe; writes into one namespace are serialised.
 *
 * <p>Errors: unknown memory (or one of another namespace, or deleted) {@link
 * java.util.NoSuchElementException}; bad input {@link IllegalArgumentException}; illegal status
 * transition {@link IllegalStateException}; text refused by write safety {@link
 * WriteBlockedException}.
 */
public interface MemoryService extends AutoCloseable {

    /**
     * A service over {@code store}, embedding with {@code model} and indexing text in {@code
     * lexical}; the service owns (and closes) {@code lexical} but not the store or the model.
     */
    static MemoryService create(
            Store store,
            EmbeddingModel model,
            LexicalIndex lexical,
            WriteGuard guard,
            MemoryServiceConfig config,
            Clock clock) {
        return new DefaultMemoryService(store, model, lexical, guard, config, clock);
    }

    /** Writes a memory (see the package documentation for the path). */
    WriteResult write(NewMemory draft, String actor);

    /**
     * Writes several memories as if written one after the other at {@code at} (e.g. imported
     * conversation turns with their original time), embedding them in one batch. Each write is its
     * own transaction; a blocked text fails the whole call before anything is written.
     */
    List<WriteResult> writeAll(List<NewMemory> drafts, String actor, java.time.Instant at);

    /** A live (not deleted) memory. */
    Memory get(String namespace, String id);

    /** Its status history, oldest first (404 when the memory is unknown or deleted). */
    List<StatusTransition> history(String namespace, String id);

    Page<Memory> list(String namespace, MemoryFilter filter, PageRequest page);

    /** Applies edits (re-checking and re-embedding new content). */
    WriteResult update(String namespace, String id, List<MemoryEdit> edits, String actor);

    /** Soft-deletes: the row stays, flagged; recall and GET no longer see it. */
    void delete(String namespace, String id, String actor);

    Memory disable(String namespace, String id, String actor, String reason);

    Memory enable(String namespace, String id, String actor, String reason);

    /** Any status -> INVALIDATED (409 from INVALIDATED). */
    Memory invalidate(String namespace, String id, String actor, String reason);

    /** Recalls, under the namespace's active recall adaptation if it has one. */
    RecallResult recall(RecallRequest request);

    /**
     * Trains a recall adaptation from the namespace's memory judgments, compares it with the
     * current recall on the held-back judgments and activates it only if it wins there ({@link
     * Tuner}, the rule retrieve's adaptations follow).
     *
     * @return the new version, active or rejected, with its report
     * @throws java.util.NoSuchElementException when the namespace does not exist
     * @throws IllegalStateException when there are too few judged queries
     */
    Adaptation tune(String namespace, TuneOptions options);

    /**
     * Rolls the namespace's active recall adaptation back to the one it replaced (or to none).
     *
     * @return the adaptation active now, empty when none
     * @throws java.util.NoSuchElementException when the namespace or an active adaptation is
     *     missing
     */
    Optional<Adaptation> rollbackAdaptation(String namespace);

    /** The namespaces' recall adaptations (read them; change them through {@link #tune}). */
    AdaptationStore adaptations();

    /** Runs every maintenance job once, now (they also run on the configured schedule). */
    MaintenanceReport maintain();

    /** Counters for monitoring. */
    MemoryStats stats();

    /** The embedding model's id (what embedding repair compares against). */
    String embeddingModelId();

    @Override
    void close();
}
