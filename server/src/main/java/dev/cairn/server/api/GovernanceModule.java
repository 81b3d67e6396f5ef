package dev.cairn.server.api;

import dev.cairn.agents.conversation.Transcripts;
import dev.cairn.agents.kv.KeyValueMemory;
import dev.cairn.agents.search.HybridTextIndex;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.memory.extract.ExtractionPipeline;
import dev.cairn.memory.proposal.ProposalRepository;
import dev.cairn.memory.proposal.Proposals;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.store.Store;

/**
 * Memory governance and agent integration, wired onto one store: what the conversation (ARK),
 * key/value (Orloj), proposal, transcript, extraction and tool resources run on. Owns the two
 * in-memory search indexes (closed by {@link #close()}), not the store or the model. Thread-safe.
 */
public final class GovernanceModule implements AutoCloseable {

    private final Store store;
    private final HybridTextIndex transcriptIndex;
    private final HybridTextIndex keyValueIndex;
    private final Transcripts transcripts;
    private final KeyValueMemory keyValues;
    private final Proposals proposals;
    private final MemoryPort memory;

    private final KnowledgeBase knowledge;
    private final ExtractionPipeline extraction;

    private GovernanceModule(
            KnowledgeBase knowledge, MemoryPort memory, ExtractionPipeline extraction) {
        this.knowledge = knowledge;
        this.extraction = extraction;
        Store store = knowledge.store();
        EmbeddingModel model = knowledge.model();
        this.store = store;
        this.memory = memory;
        this.transcriptIndex = HybridTextIndex.withEmbeddings(model);
        this.keyValueIndex = HybridTextIndex.withEmbeddings(model);
        // Both indexes follow the store's change log: writes of every server sharing it.
        this.transcripts = Transcripts.open(store, transcriptIndex);
        this.keyValues = KeyValueMemory.open(store, keyValueIndex);
        this.proposals = Proposals.create(ProposalRepository.sql(store.sql()));
    }

    /**
     * A module over the knowledge base's store, searching with its model's vectors; the {@code
     * retrieve} tool runs on the knowledge base, durable memory goes through {@code memory} and
     * {@code POST extract} runs {@code extraction}.
     */
    public static GovernanceModule create(
            KnowledgeBase knowledge, MemoryPort memory, ExtractionPipeline extraction) {
        return new GovernanceModule(knowledge, memory, extraction);
    }

    public Transcripts transcripts() {
        return transcripts;
    }

    public KeyValueMemory keyValues() {
        return keyValues;
    }

    public Proposals proposals() {
        return proposals;
    }

    public Store store() {
        return store;
    }

    public KnowledgeBase knowledge() {
        return knowledge;
    }

    /** Durable memory as the governance resources use it. */
    public MemoryPort memory() {
        return memory;
    }

    public ExtractionPipeline extraction() {
        return extraction;
    }

    @Override
    public void close() {
        try {
            transcripts.close();
            keyValues.close();
        } finally {
            try {
                transcriptIndex.close();
            } finally {
                keyValueIndex.close();
            }
        }
    }
}
