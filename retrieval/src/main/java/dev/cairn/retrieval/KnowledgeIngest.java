package dev.cairn.retrieval;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.retrieval.ingest.Chunker;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.store.ChunkDraft;
import dev.cairn.store.DocumentDraft;
import dev.cairn.store.Store;
import dev.cairn.store.StoredDocument;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

/**
 * The ingest side of {@link KnowledgeBase}: chunks documents, embeds their chunks in groups (so
 * batches fill up across documents), stores each document with its entity declarations, and catches
 * the derived indexes up from the store's change log before returning.
 *
 * <p>Thread-safe: it holds no state of its own between calls; the store orders concurrent writes.
 */
final class KnowledgeIngest {

    /** Documents embedded together during a bulk ingest, so batches fill up across documents. */
    static final int INGEST_GROUP = 16;

    private final Store store;
    private final EmbeddingModel model;
    private final Chunker chunker;
    private final RetrievalConfig config;
    private final EntityRepository entities;

    KnowledgeIngest(
            Store store, EmbeddingModel model, RetrievalConfig config, EntityRepository entities) {
        this.store = store;
        this.model = model;
        this.config = config;
        this.entities = entities;
        this.chunker = Chunker.headingAware(model.tokenCounter(), config.chunking());
    }

    /**
     * Chunks, embeds and stores a document, replacing its previous version atomically: the old
     * chunks leave every index.
     *
     * @throws NoSuchElementException when the namespace does not exist
     * @throws IllegalArgumentException when the document is over the size limit or empty
     */
    IngestResult ingest(String namespace, ParsedDocument document) {
        return ingestAll(namespace, List.of(document), r -> {}).getFirst();
    }

    /**
     * Ingests documents in groups, embedding the chunks of a group together; {@code progress} hears
     * of each document once it is stored.
     */
    List<IngestResult> ingestAll(
            String namespace, Iterable<ParsedDocument> documents, Consumer<IngestResult> progress) {
        requireNamespace(namespace);
        List<IngestResult> results = new ArrayList<>();
        List<ParsedDocument> group = new ArrayList<>();
        for (ParsedDocument document : documents) {
            checkSize(document);
            group.add(document);
            if (group.size() == INGEST_GROUP) {
                results.addAll(ingestGroup(namespace, group, progress));
                group.clear();
            }
        }
        if (!group.isEmpty()) {
            results.addAll(ingestGroup(namespace, group, progress));
        }
        return results;
    }

    private List<IngestResult> ingestGroup(
            String namespace, List<ParsedDocument> group, Consumer<IngestResult> progress) {
        List<List<ChunkDraft>> chunksPerDocument = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        List<EntityRepository.Declarations> declarations = new ArrayList<>();
        for (ParsedDocument document : group) {
            declarations.add(declarations(document));
            List<ChunkDraft> chunks = chunker.chunk(document);
            chunksPerDocument.add(chunks);
            for (ChunkDraft chunk : chunks) {
                texts.add(embeddingText(document.title(), chunk));
            }
        }
        List<float[]> vectors = texts.isEmpty() ? List.of() : model.embedDocuments(texts);
        List<IngestResult> results = new ArrayList<>();
        int next = 0;
        for (int d = 0; d < group.size(); d++) {
            ParsedDocument document = group.get(d);
            List<ChunkDraft> embedded = new ArrayList<>();
            for (ChunkDraft chunk : chunksPerDocument.get(d)) {
                embedded.add(chunk.withEmbedding(vectors.get(next++), model.id()));
            }
            // Declarations first: the catch-up that applies the document's change reads them.
            entities.replaceDeclarations(namespace, document.id(), declarations.get(d));
            StoredDocument stored = store.replaceDocument(namespace, draft(document), embedded);
            IngestResult result = new IngestResult(stored.id(), stored.version(), embedded.size());
            results.add(result);
            progress.accept(result);
        }
        store.changeLog().catchUp();
        return results;
    }

    /** Front matter entities and relations as the graph takes them; validates entity kinds. */
    static EntityRepository.Declarations declarations(ParsedDocument document) {
        List<dev.cairn.graph.EntityDeclaration> declared = new ArrayList<>();
        for (dev.cairn.retrieval.ingest.DeclaredEntity e : document.entities()) {
            declared.add(
                    new dev.cairn.graph.EntityDeclaration(
                            e.name(),
                            e.kind().isBlank()
                                    ? dev.cairn.graph.EntityKind.OTHER
                                    : dev.cairn.graph.EntityKind.parse(e.kind()),
                            e.aliases()));
        }
        return new EntityRepository.Declarations(declared, document.relations());
    }

    /** Title and headings give a chunk the context its own words may lack. */
    static String embeddingText(String title, ChunkDraft chunk) {
        StringBuilder text = new StringBuilder();
        if (!title.isBlank()) {
            text.append(title).append('\n');
        }
        for (String heading : chunk.headingPath()) {
            if (!heading.equals(title)) {
                text.append(heading).append('\n');
            }
        }
        return text.append(chunk.text()).toString();
    }

    private void checkSize(ParsedDocument document) {
        long bytes = document.body().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > config.maxDocumentBytes()) {
            throw new PayloadTooLargeException(
                    "document '"
                            + document.id()
                            + "' has "
                            + bytes
                            + " bytes, over the limit of "
                            + config.maxDocumentBytes(),
                    config.maxDocumentBytes());
        }
        if (document.body().isBlank()) {
            throw new IllegalArgumentException("document '" + document.id() + "' has no content");
        }
    }

    private static DocumentDraft draft(ParsedDocument d) {
        Map<String, String> metadata = new LinkedHashMap<>(d.metadata());
        return new DocumentDraft(
                d.id(),
                d.title(),
                d.format(),
                d.source(),
                d.authority(),
                d.tags(),
                metadata,
                d.body());
    }

    /** Deletes a document from the store and every index; false when there was none. */
    boolean delete(String namespace, String documentId) {
        requireNamespace(namespace);
        boolean deleted = store.deleteDocument(namespace, documentId);
        store.changeLog().catchUp();
        return deleted;
    }

    void requireNamespace(String namespace) {
        if (store.namespace(namespace).isEmpty()) {
            throw new NoSuchElementException("namespace '" + namespace + "' does not exist");
        }
    }
}
