package dev.cairn.server.api;

import dev.cairn.agents.conversation.Transcripts;
import dev.cairn.agents.kv.KeyValueMemory;
import dev.cairn.agents.search.HybridTextIndex;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.memory.extract.ExtractionPipeline;
import dev.cairn.memory.proposal.ProposalRepository;
import dev.cairn.memory.proposal.Proposals;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.safety.WriteBlockedException;
import dev.cairn.server.http.ErrorEnvelope;
import dev.cairn.store.Store;
import io.helidon.webserver.http.HttpRouting;

/**
 * Memory governance and agent integration, wired onto one store: conversations (ARK), the key/value
 * memory (Orloj), proposals, transcript search, extraction and agent tools. Owns the two in-memory
 * search indexes (closed by {@link #close()}), not the store or the model. Thread-safe.
 */
public final class GovernanceModule implements AutoCloseable {

    private final Store store;
    private final long maxBodyBytes;
    private final HybridTextIndex transcriptIndex;
    private final HybridTextIndex keyValueIndex;
    private final Transcripts transcripts;
    private final KeyValueMemory keyValues;
    private final Proposals proposals;
    private final MemoryPort memory;

    private final KnowledgeBase knowledge;
    private final ExtractionPipeline extraction;

    private GovernanceModule(
            KnowledgeBase knowledge,
            MemoryPort memory,
            ExtractionPipeline extraction,
            long maxBodyBytes) {
        this.knowledge = knowledge;
        this.extraction = extraction;
        Store store = knowledge.store();
        EmbeddingModel model = knowledge.model();
        this.store = store;
        this.maxBodyBytes = maxBodyBytes;
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
            KnowledgeBase knowledge,
            MemoryPort memory,
            ExtractionPipeline extraction,
            long maxBodyBytes) {
        return new GovernanceModule(knowledge, memory, extraction, maxBodyBytes);
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

    /** Registers every route of the module and the 422 answer for blocked writes. */
    public void register(HttpRouting.Builder routing) {
        routing.error(
                WriteBlockedException.class,
                (req, res, e) ->
                        ErrorEnvelope.forPath(req.path().path())
                                .send(req, res, 422, e.getMessage(), ""));
        new ArkRoutes(store, transcripts, maxBodyBytes).register(routing);
        new OrlojRoutes(store, keyValues, maxBodyBytes).register(routing);
        new ProposalRoutes(store, proposals, memory, maxBodyBytes).register(routing);
        new ExtractRoutes(store, extraction, proposals, memory, maxBodyBytes).register(routing);
        new TranscriptRoutes(store, transcripts, maxBodyBytes).register(routing);
        new ToolRoutes(store, maxBodyBytes)
                .keyValueTools(keyValues)
                .proposalTools(proposals)
                .transcriptTools(transcripts)
                .retrievalTools(knowledge)
                .memoryTools(memory)
                .register(routing);
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
