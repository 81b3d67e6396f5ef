package dev.cairn.retrieval.dense;

import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.StoredChunk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.IOUtils;

/**
 * Approximate cosine search with Lucene's HNSW graph (Malkov and Yashunin, 2018, "Efficient and
 * robust approximate nearest neighbor search using Hierarchical Navigable Small World graphs",
 * arXiv:1603.09320), one in-memory Lucene index per namespace, loaded from {@link
 * DocumentRepository#forEachEmbedding} on first use and then kept current through the update
 * methods.
 *
 * <p>Vectors are unit length (the encoders normalise), so Lucene's dot-product similarity is the
 * cosine; Lucene reports it as {@code (1 + cos) / 2}, which {@link #search} maps back. The search
 * explores {@code max(k, efSearch)} candidates ({@code ef_search} as in pgvector) and keeps the
 * best {@code k}.
 *
 * <p>Thread-safe: Lucene's writer and searcher manager are; loading a namespace happens once under
 * {@link ConcurrentHashMap#computeIfAbsent}.
 */
final class LuceneHnswDenseIndex implements DenseIndex, AutoCloseable {

    static final String FIELD_VECTOR = "vector";
    static final String FIELD_CHUNK_ID = "chunk_id";
    static final String FIELD_DOCUMENT_ID = "document_id";

    private final DocumentRepository documents;
    private final int efSearch;
    private final Map<String, Shard> shards = new ConcurrentHashMap<>();

    LuceneHnswDenseIndex(DocumentRepository documents, int efSearch) {
        if (efSearch < 1) {
            throw new IllegalArgumentException("illegal efSearch: " + efSearch + ", must be >= 1");
        }
        this.documents = documents;
        this.efSearch = efSearch;
    }

    @Override
    public List<DenseHit> search(String namespace, float[] query, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("illegal k: " + k + ", must be >= 1");
        }
        Shard shard = shard(namespace);
        try {
            shard.manager.maybeRefreshBlocking();
            IndexSearcher searcher = shard.manager.acquire();
            try {
                if (searcher.getIndexReader().numDocs() == 0) {
                    return List.of();
                }
                int dims = shard.dimensions;
                if (query.length != dims) {
                    throw new IllegalArgumentException(
                            "illegal query dimensions: " + query.length + ", must be " + dims);
                }
                TopDocs top =
                        searcher.search(
                                new KnnFloatVectorQuery(FIELD_VECTOR, query, Math.max(k, efSearch)),
                                Math.max(k, efSearch));
                var stored = searcher.storedFields();
                List<DenseHit> hits = new ArrayList<>(top.scoreDocs.length);
                for (ScoreDoc sd : top.scoreDocs) {
                    String id = stored.document(sd.doc).get(FIELD_CHUNK_ID);
                    hits.add(new DenseHit(id, 2.0 * sd.score - 1.0));
                }
                hits.sort(
                        Comparator.comparingDouble(DenseHit::similarity)
                                .reversed()
                                .thenComparing(DenseHit::chunkId));
                return hits.size() > k ? List.copyOf(hits.subList(0, k)) : hits;
            } finally {
                shard.manager.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("HNSW search failed in namespace " + namespace, e);
        }
    }

    @Override
    public void replaceDocument(String namespace, String documentId, List<StoredChunk> chunks) {
        Shard shard = shards.get(namespace);
        if (shard == null) {
            return; // not loaded yet: the first search loads it from the store
        }
        List<Document> docs = new ArrayList<>(chunks.size());
        for (StoredChunk chunk : chunks) {
            if (chunk.embedding().length > 0) {
                docs.add(shard.document(chunk.id(), documentId, chunk.embedding()));
            }
        }
        try {
            Term term = new Term(FIELD_DOCUMENT_ID, documentId);
            if (docs.isEmpty()) {
                shard.writer.deleteDocuments(term);
            } else {
                shard.writer.updateDocuments(term, docs);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void removeDocument(String namespace, String documentId) {
        replaceDocument(namespace, documentId, List.of());
    }

    @Override
    public void removeNamespace(String namespace) {
        Shard shard = shards.remove(namespace);
        if (shard != null) {
            shard.close();
        }
    }

    /** Whether the namespace's graph is built (for tests and the size-aware choice). */
    boolean isLoaded(String namespace) {
        return shards.containsKey(namespace);
    }

    @Override
    public void close() {
        shards.values().forEach(Shard::close);
        shards.clear();
    }

    private Shard shard(String namespace) {
        return shards.computeIfAbsent(namespace, this::load);
    }

    private Shard load(String namespace) {
        Shard shard = Shard.open();
        try {
            documents.forEachEmbedding(
                    namespace,
                    (chunkId, vector) -> {
                        try {
                            shard.writer.addDocument(
                                    shard.document(
                                            chunkId, StoredChunk.documentIdOf(chunkId), vector));
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
            shard.manager.maybeRefreshBlocking();
            return shard;
        } catch (IOException | RuntimeException e) {
            shard.close();
            throw e instanceof IOException io
                    ? new UncheckedIOException("cannot build HNSW for " + namespace, io)
                    : (RuntimeException) e;
        }
    }

    /** One namespace's in-memory index. */
    private static final class Shard {
        final ByteBuffersDirectory dir;
        final IndexWriter writer;
        final SearcherManager manager;
        volatile int dimensions = -1;

        private Shard(ByteBuffersDirectory dir, IndexWriter writer, SearcherManager manager) {
            this.dir = dir;
            this.writer = writer;
            this.manager = manager;
        }

        static Shard open() {
            ByteBuffersDirectory dir = new ByteBuffersDirectory();
            try {
                IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig());
                return new Shard(dir, writer, new SearcherManager(writer, null));
            } catch (IOException e) {
                IOUtils.closeWhileHandlingException(dir);
                throw new UncheckedIOException(e);
            }
        }

        Document document(String chunkId, String documentId, float[] vector) {
            if (dimensions < 0) {
                dimensions = vector.length;
            }
            Document doc = new Document();
            doc.add(new StringField(FIELD_DOCUMENT_ID, documentId, Field.Store.NO));
            doc.add(new StoredField(FIELD_CHUNK_ID, chunkId));
            doc.add(
                    new KnnFloatVectorField(
                            FIELD_VECTOR, vector, VectorSimilarityFunction.DOT_PRODUCT));
            return doc;
        }

        /**
         * Closes the writer (flushing into the heap directory, which is then dropped). Not {@code
         * rollback()}: aborting buffered vector documents trips an accounting assertion in Lucene
         * 10's DocumentsWriter when assertions are on.
         */
        void close() {
            IOUtils.closeWhileHandlingException(manager, writer, dir);
        }
    }

    @Override
    public void removeAll() {
        for (String namespace : List.copyOf(shards.keySet())) {
            removeNamespace(namespace);
        }
    }
}
