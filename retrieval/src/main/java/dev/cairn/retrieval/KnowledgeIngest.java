package dev.cairn.retrieval;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.retrieval.ingest.Chunker;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.retrieval.store.ChunkDraft;
import dev.cairn.retrieval.store.DocumentDraft;
import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.DocumentWrite;
import dev.cairn.retrieval.store.IngestedDocument;
import dev.cairn.retrieval.store.StoredChunk;
import dev.cairn.retrieval.store.StoredDocument;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

/**
 * The ingest side of {@link KnowledgeBase}, one mechanism for a single HTTP document, a CLI folder
 * and a BEIR corpus: a {@link BoundedPipeline} of three overlapping stages over batches of up to
 * {@link #BATCH_DOCUMENTS} documents.
 *
 * <ol>
 *   <li>prepare (own thread): checks sizes, computes each document's ingest key, drops the ones
 *       stored with the same key (when asked to, {@link IngestMode#SKIP_UNCHANGED}) and chunks the
 *       rest;
 *   <li>embed (own thread): all chunks of the batch in one call, which the encoder sorts by token
 *       length and cuts into padding-aware forward passes, so a big batch wastes little on padding;
 *   <li>write (the caller's thread): the whole batch, entity declarations included, in one store
 *       transaction, then one catch-up of the derived indexes.
 * </ol>
 *
 * <p>At most {@link #QUEUED_BATCHES} batches wait between two stages, so the encoder never waits
 * for the store unless the store is that far behind, and vice versa. A failure in any stage fails
 * the ingest: batches written before it stay, the failing batch is written not at all.
 *
 * <p>Resume: each stored document keeps its ingest key, the SHA-256 of the embedding model id (not
 * the precision it was computed in, see {@link EmbeddingModel#id()}), the chunking settings and
 * every field of the parsed document (id, title, format, authority, tags, source, metadata,
 * declared entities and relations, body). {@link IngestMode#SKIP_UNCHANGED} skips a document stored
 * under the same key, so an interrupted ingest run again embeds only what it had not stored, and a
 * changed document (or model, or chunking) is ingested again. A document written any other way has
 * no key and is never skipped.
 *
 * <p>Thread-safe: it holds no state of its own between calls; the store orders concurrent writes.
 */
final class KnowledgeIngest {

    /**
     * Documents per batch: per embedding call and per store transaction. 128 SciFact abstracts make
     * about 200 chunks, enough for the encoder's length sorting to leave little padding, and one
     * SQLite transaction (one fsync) per 128 documents instead of per document.
     */
    static final int BATCH_DOCUMENTS = 128;

    /** Batches that may wait between two stages. */
    static final int QUEUED_BATCHES = 2;

    private final Store store;
    private final DocumentRepository documents;
    private final EmbeddingModel model;
    private final Chunker chunker;
    private final RetrievalConfig config;
    private final EntityRepository entities;

    KnowledgeIngest(
            Store store,
            DocumentRepository documents,
            EmbeddingModel model,
            RetrievalConfig config,
            EntityRepository entities) {
        this.store = store;
        this.documents = documents;
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
    IngestResult ingest(String namespace, ParsedDocument document, IngestMode mode) {
        List<IngestResult> results = new ArrayList<>(1);
        ingestAll(namespace, List.of(document), mode, results::add);
        return results.getFirst();
    }

    /**
     * Ingests documents through the pipeline; {@code progress} hears of each document once it is
     * stored or skipped, in input order, on the caller's thread.
     */
    void ingestAll(
            String namespace,
            Iterable<ParsedDocument> documents,
            IngestMode mode,
            Consumer<IngestResult> progress) {
        requireNamespace(namespace);
        BoundedPipeline.from("ingest", batches(documents.iterator()), QUEUED_BATCHES)
                .then("prepare", batch -> prepare(namespace, batch, mode))
                .then("embed", this::embed)
                .drain(batch -> write(namespace, batch, progress));
    }

    private static Iterator<List<ParsedDocument>> batches(Iterator<ParsedDocument> documents) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return documents.hasNext();
            }

            @Override
            public List<ParsedDocument> next() {
                List<ParsedDocument> batch = new ArrayList<>(BATCH_DOCUMENTS);
                while (batch.size() < BATCH_DOCUMENTS && documents.hasNext()) {
                    batch.add(documents.next());
                }
                return batch;
            }
        };
    }

    /** A document of a batch: unchanged (stored already), or fresh: chunked, then embedded. */
    private sealed interface Item permits Unchanged, Fresh {}

    private record Unchanged(IngestedDocument stored) implements Item {}

    private record Fresh(ParsedDocument document, String key, List<ChunkDraft> chunks)
            implements Item {}

    private List<Item> prepare(String namespace, List<ParsedDocument> batch, IngestMode mode) {
        batch.forEach(this::check);
        Map<String, IngestedDocument> stored =
                mode == IngestMode.SKIP_UNCHANGED
                        ? documents.ingestedDocuments(
                                namespace, batch.stream().map(ParsedDocument::id).toList())
                        : Map.of();
        List<Item> items = new ArrayList<>(batch.size());
        for (ParsedDocument document : batch) {
            String key = ingestKey(document, model.id());
            IngestedDocument same = stored.get(document.id());
            items.add(
                    same != null && storedUnder(same, document, key)
                            ? new Unchanged(same)
                            : new Fresh(document, key, chunker.chunk(document)));
        }
        return items;
    }

    private List<Item> embed(List<Item> batch) {
        List<String> texts = new ArrayList<>();
        for (Item item : batch) {
            if (item instanceof Fresh fresh) {
                for (ChunkDraft chunk : fresh.chunks()) {
                    texts.add(embeddingText(fresh.document().title(), chunk));
                }
            }
        }
        List<float[]> vectors = texts.isEmpty() ? List.of() : model.embedDocuments(texts);
        List<Item> embedded = new ArrayList<>(batch.size());
        int next = 0;
        for (Item item : batch) {
            if (item instanceof Fresh fresh) {
                List<ChunkDraft> chunks = new ArrayList<>(fresh.chunks().size());
                for (ChunkDraft chunk : fresh.chunks()) {
                    chunks.add(chunk.withEmbedding(vectors.get(next++), model.id()));
                }
                item = new Fresh(fresh.document(), fresh.key(), chunks);
            }
            embedded.add(item);
        }
        return embedded;
    }

    private void write(String namespace, List<Item> batch, Consumer<IngestResult> progress) {
        List<DocumentWrite> writes = new ArrayList<>();
        Map<String, EntityRepository.Declarations> declared = new HashMap<>();
        for (Item item : batch) {
            if (item instanceof Fresh fresh) {
                writes.add(new DocumentWrite(draft(fresh.document()), fresh.chunks(), fresh.key()));
                declared.put(fresh.document().id(), declarations(fresh.document()));
            }
        }
        List<StoredDocument> stored = writeAll(namespace, writes, declared);
        int next = 0;
        for (Item item : batch) {
            progress.accept(
                    switch (item) {
                        case Unchanged u ->
                                new IngestResult(
                                        u.stored().id(),
                                        u.stored().version(),
                                        u.stored().chunks(),
                                        true);
                        case Fresh fresh -> {
                            StoredDocument document = stored.get(next++);
                            yield new IngestResult(
                                    document.id(),
                                    document.version(),
                                    fresh.chunks().size(),
                                    false);
                        }
                    });
        }
    }

    /**
     * Whether {@code stored} was ingested from {@code document} as it is now: under its {@code
     * key}, or under the key one of the model's {@link EmbeddingModels#formerIds former ids} made
     * (a document ingested by int8 or bfloat16 passes before issue 43, whose vectors are this
     * model's all the same), so an upgrade embeds none of them again.
     */
    private boolean storedUnder(IngestedDocument stored, ParsedDocument document, String key) {
        if (stored.ingestKey().equals(key)) {
            return true;
        }
        for (String former : EmbeddingModels.formerIds(model.id())) {
            if (stored.ingestKey().equals(ingestKey(document, former))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The SHA-256 of everything a stored document is made from (see the class comment), its model
     * named {@code modelId}.
     */
    private String ingestKey(ParsedDocument d, String modelId) {
        List<String> fields = new ArrayList<>();
        fields.add(modelId);
        fields.add(config.chunking().toString());
        fields.add(d.id());
        fields.add(d.title());
        fields.add(d.format().name());
        fields.add(d.authority().name());
        fields.add(String.valueOf(d.tags().size()));
        fields.addAll(d.tags());
        fields.add(d.source());
        d.metadata()
                .forEach(
                        (k, v) -> {
                            fields.add(k);
                            fields.add(v);
                        });
        fields.add(d.entities().toString());
        fields.add(d.relations().toString());
        fields.add(d.body());
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String field : fields) {
                byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
                // length-prefixed, so no two different field lists hash the same bytes
                sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
                sha.update(bytes);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
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

    /**
     * Refuses a document an ingest cannot store, before anything of its batch is embedded: over the
     * size limit, without content, or declaring an entity of an unknown kind.
     *
     * @throws IllegalArgumentException naming the document and what is wrong with it ({@link
     *     PayloadTooLargeException} for the size)
     */
    void check(ParsedDocument document) {
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
        declarations(document); // validates entity kinds
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

    /**
     * Hands every document of {@code namespace} to {@code consumer} as a {@link DocumentCopy}, by
     * id, a page at a time.
     */
    void forEachCopy(String namespace, Consumer<DocumentCopy> consumer) {
        requireNamespace(namespace);
        PageRequest page = PageRequest.first(100);
        while (true) {
            Page<StoredDocument> batch = documents.documents(namespace, page, "");
            Map<String, IngestedDocument> keys =
                    documents.ingestedDocuments(
                            namespace, batch.items().stream().map(StoredDocument::id).toList());
            for (StoredDocument d : batch.items()) {
                EntityRepository.Declarations declared = entities.declarations(namespace, d.id());
                List<ChunkDraft> chunks = new ArrayList<>();
                for (StoredChunk c : documents.chunks(namespace, d.id())) {
                    chunks.add(
                            new ChunkDraft(
                                    c.ordinal(),
                                    c.headingPath(),
                                    c.text(),
                                    c.tokenCount(),
                                    c.embedding(),
                                    c.embeddingModel()));
                }
                IngestedDocument key = keys.get(d.id());
                consumer.accept(
                        new DocumentCopy(
                                d.id(),
                                d.title(),
                                d.format(),
                                d.source(),
                                d.authority(),
                                d.tags(),
                                d.metadata(),
                                d.content(),
                                key == null ? "" : key.ingestKey(),
                                declared.entities(),
                                declared.relations(),
                                chunks));
            }
            if (!batch.hasMore()) {
                return;
            }
            page = new PageRequest(100, batch.nextCursor());
        }
    }

    /**
     * Writes {@code copies} into {@code namespace} in one transaction, each a new version of its
     * document with its chunks and front matter, unless it is stored already under the same ingest
     * key with as many chunks. Chunk vectors of this model and length are kept; the others are
     * embedded again. The indexes catch up before this returns.
     */
    DocumentCopy.Restored restore(String namespace, List<DocumentCopy> copies) {
        requireNamespace(namespace);
        Map<String, IngestedDocument> stored =
                documents.ingestedDocuments(
                        namespace, copies.stream().map(DocumentCopy::id).toList());
        List<DocumentCopy> fresh = new ArrayList<>();
        for (DocumentCopy copy : copies) {
            IngestedDocument known = stored.get(copy.id());
            boolean same =
                    known != null
                            && !copy.ingestKey().isEmpty()
                            && known.ingestKey().equals(copy.ingestKey())
                            && known.chunks() == copy.chunks().size();
            if (!same) {
                fresh.add(copy);
            }
        }
        List<String> toEmbed = new ArrayList<>();
        int reused = 0;
        for (DocumentCopy copy : fresh) {
            for (ChunkDraft c : copy.chunks()) {
                if (keeps(c)) {
                    reused++;
                } else {
                    toEmbed.add(c.text());
                }
            }
        }
        List<float[]> vectors = toEmbed.isEmpty() ? List.of() : model.embedDocuments(toEmbed);
        int next = 0;
        List<DocumentWrite> writes = new ArrayList<>();
        Map<String, EntityRepository.Declarations> declared = new HashMap<>();
        for (DocumentCopy copy : fresh) {
            List<ChunkDraft> chunks = new ArrayList<>();
            for (ChunkDraft c : copy.chunks()) {
                chunks.add(keeps(c) ? c : c.withEmbedding(vectors.get(next++), model.id()));
            }
            writes.add(new DocumentWrite(copy.draft(), chunks, copy.ingestKey()));
            declared.put(
                    copy.id(),
                    new EntityRepository.Declarations(copy.entities(), copy.relations()));
        }
        writeAll(namespace, writes, declared);
        return new DocumentCopy.Restored(
                writes.size(), copies.size() - writes.size(), reused, toEmbed.size());
    }

    /**
     * Writes documents with their front matter in one transaction, then catches the indexes up. The
     * declarations go in the documents' transaction: the catch-up that applies a document's change
     * reads them, and a failed batch leaves neither.
     */
    private List<StoredDocument> writeAll(
            String namespace,
            List<DocumentWrite> writes,
            Map<String, EntityRepository.Declarations> declared) {
        if (writes.isEmpty()) {
            return List.of();
        }
        List<StoredDocument> stored =
                documents.replaceDocuments(
                        namespace,
                        writes,
                        (c, w) ->
                                entities.replaceDeclarations(
                                        c,
                                        namespace,
                                        w.document().id(),
                                        declared.get(w.document().id())));
        store.changeLog().catchUp();
        return stored;
    }

    /** Whether a chunk's vector is this model's, so a restore keeps it. */
    private boolean keeps(ChunkDraft chunk) {
        return chunk.embeddingModel().equals(model.id())
                && chunk.embedding().length == model.dimensions();
    }

    /** Deletes a document from the store and every index; false when there was none. */
    boolean delete(String namespace, String documentId) {
        requireNamespace(namespace);
        boolean deleted = documents.deleteDocument(namespace, documentId);
        store.changeLog().catchUp();
        return deleted;
    }

    void requireNamespace(String namespace) {
        if (store.namespace(namespace).isEmpty()) {
            throw new NoSuchElementException("namespace '" + namespace + "' does not exist");
        }
    }
}
