package dev.cairn.retrieval.lexical;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * Lucene implementation of {@link LexicalIndex}: one directory and writer per namespace.
 *
 * <p>Why about 540 lines: a namespace's directory, writer and searcher with their lifecycle (opened
 * on demand, committed, purged of deleted documents, deleted), the BM25 query builder and the
 * change-log position all work against one Lucene API and its locking, and split apart they would
 * pass the same handles around.
 */
final class LuceneLexicalIndex implements LexicalIndex {

    private static final System.Logger LOG = System.getLogger(LuceneLexicalIndex.class.getName());

    static final String FIELD_CHUNK_ID = "chunk_id";
    static final String FIELD_DOCUMENT_ID = "document_id";
    static final String FIELD_TITLE = "title";
    static final String FIELD_HEADINGS = "headings";
    static final String FIELD_TEXT = "text";
    static final String FIELD_CONTENTS = "contents";
    static final String COMMIT_SEQ_KEY = "cairn.lastAppliedSeq";

    /**
     * Most distinct query terms used; the rest are ignored so a pasted document never hits Lucene's
     * clause limit (1024) across four fields.
     */
    static final int MAX_QUERY_TERMS = 200;

    private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    private final LexicalConfig config;
    private final Path root; // null when in memory
    private final Function<String, Directory> directories;
    private final Analyzer analyzer;
    private final BM25Similarity similarity;
    private final Map<String, Shard> shards = new ConcurrentHashMap<>();
    private final AtomicLong lastAppliedSeq = new AtomicLong();
    private volatile boolean closed;

    private LuceneLexicalIndex(
            LexicalConfig config, Path root, Function<String, Directory> directories) {
        this.config = config;
        this.root = root;
        this.directories = directories;
        this.analyzer = config.analysis().newAnalyzer();
        this.similarity = new BM25Similarity((float) config.k1(), (float) config.b());
    }

    static LuceneLexicalIndex inMemory(LexicalConfig config) {
        return new LuceneLexicalIndex(config, null, ns -> new ByteBuffersDirectory());
    }

    static LuceneLexicalIndex onDisk(Path dir, LexicalConfig config) {
        try {
            OwnerOnlyDirectory.createDirectories(dir);
            LuceneLexicalIndex index =
                    new LuceneLexicalIndex(
                            config,
                            dir,
                            ns -> {
                                try {
                                    return OwnerOnlyDirectory.open(dir.resolve(ns));
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            });
            long min = Long.MAX_VALUE;
            boolean any = false;
            try (Stream<Path> children = Files.list(dir)) {
                for (Path child : children.sorted().toList()) {
                    String ns = child.getFileName().toString();
                    if (!Files.isDirectory(child) || !NAMESPACE.matcher(ns).matches()) {
                        continue;
                    }
                    Shard shard = index.shard(ns);
                    any = true;
                    min = Math.min(min, shard.committedSeq);
                }
            }
            index.lastAppliedSeq.set(any ? min : 0);
            return index;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open lexical index in " + dir, e);
        }
    }

    @Override
    public LexicalConfig config() {
        return config;
    }

    @Override
    public void upsertDocument(String namespace, String documentId, List<IndexedChunk> chunks) {
        checkOpen();
        checkNamespace(namespace);
        checkDocumentId(documentId);
        Set<String> seen = new HashSet<>();
        List<Document> docs = new ArrayList<>(chunks.size());
        for (IndexedChunk chunk : chunks) {
            if (!seen.add(chunk.chunkId())) {
                throw new IllegalArgumentException(
                        "illegal chunks: duplicate chunkId '" + chunk.chunkId() + "'");
            }
            docs.add(toDocument(documentId, chunk));
        }
        Shard shard = shard(namespace);
        try {
            shard.writer.updateDocuments(new Term(FIELD_DOCUMENT_ID, documentId), docs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        shard.writes.incrementAndGet();
    }

    private static Document toDocument(String documentId, IndexedChunk chunk) {
        Document doc = new Document();
        // Ids are read from doc values (much cheaper per hit than stored fields).
        doc.add(new StringField(FIELD_CHUNK_ID, chunk.chunkId(), Field.Store.NO));
        doc.add(new SortedDocValuesField(FIELD_CHUNK_ID, new BytesRef(chunk.chunkId())));
        doc.add(new StringField(FIELD_DOCUMENT_ID, documentId, Field.Store.NO));
        doc.add(new SortedDocValuesField(FIELD_DOCUMENT_ID, new BytesRef(documentId)));
        String headings = String.join("\n", chunk.headingPath());
        doc.add(new TextField(FIELD_TITLE, chunk.title(), Field.Store.NO));
        doc.add(new TextField(FIELD_HEADINGS, headings, Field.Store.NO));
        doc.add(new TextField(FIELD_TEXT, chunk.text(), Field.Store.NO));
        StringBuilder contents = new StringBuilder(chunk.title());
        if (!headings.isEmpty()) {
            contents.append('\n').append(headings);
        }
        contents.append('\n').append(chunk.text());
        doc.add(new TextField(FIELD_CONTENTS, contents.toString(), Field.Store.NO));
        return doc;
    }

    @Override
    public void deleteDocument(String namespace, String documentId) {
        checkOpen();
        checkNamespace(namespace);
        checkDocumentId(documentId);
        Shard shard = existingShard(namespace);
        if (shard == null) {
            return;
        }
        try {
            shard.writer.deleteDocuments(new Term(FIELD_DOCUMENT_ID, documentId));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        shard.writes.incrementAndGet();
    }

    @Override
    public synchronized void deleteAll() {
        checkOpen();
        java.util.Set<String> namespaces = new java.util.TreeSet<>(shards.keySet());
        if (root != null && Files.isDirectory(root)) {
            try (var dirs = Files.list(root)) {
                dirs.filter(Files::isDirectory)
                        .map(d -> d.getFileName().toString())
                        .forEach(namespaces::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        for (String namespace : namespaces) {
            deleteNamespace(namespace);
        }
        lastAppliedSeq.set(0);
    }

    @Override
    public synchronized void deleteNamespace(String namespace) {
        checkOpen();
        checkNamespace(namespace);
        Shard shard = existingShard(namespace);
        if (shard != null) {
            shards.remove(namespace);
            try {
                shard.writer.deleteAll();
                shard.writer.commit();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                shard.closeQuietly();
            }
        }
        if (root != null) {
            Path dir = root.resolve(namespace);
            try {
                IOUtils.rm(dir);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete " + dir, e);
            }
        }
    }

    @Override
    public List<LexicalHit> search(String namespace, String query, int topN, boolean explain) {
        checkOpen();
        checkNamespace(namespace);
        if (topN < 1) {
            throw new IllegalArgumentException("illegal topN: " + topN + ", must be >= 1");
        }
        if (query == null) {
            throw new IllegalArgumentException("illegal query: null");
        }
        Shard shard = existingShard(namespace);
        if (shard == null) {
            return List.of();
        }
        Query q = buildQuery(query);
        if (q == null) {
            return List.of();
        }
        try {
            shard.refreshIfStale();
            IndexSearcher searcher = shard.manager.acquire();
            try {
                int maxDoc = searcher.getIndexReader().maxDoc();
                if (maxDoc == 0) {
                    return List.of();
                }
                // Never size Lucene's priority queue past the index (topN may be huge).
                ChunkTopDocs.Top best = ChunkTopDocs.best(searcher, q, Math.min(topN, maxDoc));
                ScoreDoc[] top = best.docs();
                String[] chunkIds = best.chunkIds();
                String[] documentIds = ChunkTopDocs.values(searcher, top, FIELD_DOCUMENT_ID);
                List<LexicalHit> hits = new ArrayList<>(top.length);
                for (int i = 0; i < top.length; i++) {
                    String explanation = explain ? searcher.explain(q, top[i].doc).toString() : "";
                    hits.add(
                            new LexicalHit(
                                    chunkIds[i], documentIds[i], top[i].score, i + 1, explanation));
                }
                return hits;
            } finally {
                shard.manager.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Bag of analysed terms per weighted field; a term repeated n times gets boost n. */
    Query buildQuery(String text) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        try (TokenStream ts = analyzer.tokenStream(FIELD_CONTENTS, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                String t = term.toString();
                if (counts.containsKey(t) || counts.size() < MAX_QUERY_TERMS) {
                    counts.merge(t, 1, Integer::sum);
                }
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (counts.isEmpty()) {
            return null;
        }
        FieldWeights w = config.weights();
        BooleanQuery.Builder outer = new BooleanQuery.Builder();
        addField(outer, FIELD_TITLE, w.title(), counts);
        addField(outer, FIELD_HEADINGS, w.headings(), counts);
        addField(outer, FIELD_TEXT, w.text(), counts);
        addField(outer, FIELD_CONTENTS, w.contents(), counts);
        return outer.build();
    }

    private static void addField(
            BooleanQuery.Builder outer, String field, double weight, Map<String, Integer> counts) {
        if (weight == 0) {
            return;
        }
        BooleanQuery.Builder inner = new BooleanQuery.Builder();
        counts.forEach(
                (t, n) -> {
                    Query tq = new TermQuery(new Term(field, t));
                    inner.add(n == 1 ? tq : new BoostQuery(tq, n), BooleanClause.Occur.SHOULD);
                });
        Query q = inner.build();
        outer.add(weight == 1 ? q : new BoostQuery(q, (float) weight), BooleanClause.Occur.SHOULD);
    }

    @Override
    public int chunkCount(String namespace) {
        checkOpen();
        checkNamespace(namespace);
        Shard shard = existingShard(namespace);
        if (shard == null) {
            return 0;
        }
        try {
            shard.refreshIfStale();
            IndexSearcher searcher = shard.manager.acquire();
            try {
                return searcher.getIndexReader().numDocs();
            } finally {
                shard.manager.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void commit() {
        checkOpen();
        String seq = Long.toString(lastAppliedSeq.get());
        for (Shard shard : shards.values()) {
            try {
                shard.writer.setLiveCommitData(Map.of(COMMIT_SEQ_KEY, seq).entrySet(), true);
                shard.writer.commit();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Most merge rounds {@link #purgeDeleted} runs (one is enough unless merges raced it). */
    private static final int MAX_PURGE_ROUNDS = 10;

    /** Longest {@link #purgeDeleted} waits for the merges running in one round. */
    private static final java.time.Duration MERGE_WAIT = java.time.Duration.ofMinutes(2);

    /** Returns once no merge of {@code writer} is running, or after {@link #MERGE_WAIT}. */
    private static void awaitMerges(IndexWriter writer) {
        long deadline = System.nanoTime() + MERGE_WAIT.toNanos();
        while (!writer.getMergingSegments().isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for merges", e);
            }
        }
    }

    /**
     * Merges away every segment of the namespace that holds deleted chunks ({@link
     * IndexWriter#forceMergeDeletes}), commits, and refreshes the searcher so the old segments'
     * files, which the previous near-real-time reader still referenced, are deleted.
     */
    @Override
    public synchronized void purgeDeleted(String namespace) {
        checkOpen();
        checkNamespace(namespace);
        Shard shard = existingShard(namespace);
        if (shard == null) {
            return;
        }
        try {
            // A segment a merge is already working on is left out of forceMergeDeletes' plan (and
            // the call then returns at once): wait for running merges, then go again, committing
            // each round, until the writer counts no deleted document.
            String seq = Long.toString(lastAppliedSeq.get());
            for (int round = 0; round < MAX_PURGE_ROUNDS; round++) {
                awaitMerges(shard.writer);
                shard.writer.forceMergeDeletes(true);
                awaitMerges(shard.writer);
                shard.writer.setLiveCommitData(Map.of(COMMIT_SEQ_KEY, seq).entrySet(), true);
                shard.writer.commit();
                IndexWriter.DocStats docs = shard.writer.getDocStats();
                if (docs.maxDoc == docs.numDocs) {
                    break;
                }
            }
            shard.writes.incrementAndGet();
            shard.refreshIfStale();
            shard.writer.deleteUnusedFiles();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public long lastAppliedSeq() {
        return lastAppliedSeq.get();
    }

    @Override
    public void setLastAppliedSeq(long seq) {
        if (seq < 0) {
            throw new IllegalArgumentException("illegal seq: " + seq + ", must be >= 0");
        }
        lastAppliedSeq.set(seq);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Shard shard : shards.values()) {
            shard.closeQuietly();
        }
        shards.clear();
        analyzer.close();
    }

    private Shard shard(String namespace) {
        return shards.computeIfAbsent(namespace, this::openShard);
    }

    private Shard existingShard(String namespace) {
        Shard shard = shards.get(namespace);
        if (shard == null && root != null && Files.isDirectory(root.resolve(namespace))) {
            shard = shard(namespace);
        }
        return shard;
    }

    private Shard openShard(String namespace) {
        Directory dir = directories.apply(namespace);
        try {
            IndexWriterConfig iwc = new IndexWriterConfig(analyzer);
            iwc.setSimilarity(similarity);
            iwc.setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
            // purgeDeleted rewrites every segment with a deleted chunk, not only those past the
            // default 10 % of deletions: a forgotten user's one memory must not stay on disk.
            TieredMergePolicy merges = new TieredMergePolicy();
            merges.setForceMergeDeletesPctAllowed(0);
            iwc.setMergePolicy(merges);
            // Durability is explicit: only commit() writes, together with the sequence number.
            iwc.setCommitOnClose(false);
            IndexWriter writer = new IndexWriter(dir, iwc);
            long committed = 0;
            if (DirectoryReader.indexExists(dir)) {
                String value = SegmentInfos.readLatestCommit(dir).getUserData().get(COMMIT_SEQ_KEY);
                committed = value == null ? 0 : Long.parseLong(value);
            }
            SearcherManager manager =
                    new SearcherManager(
                            writer,
                            new SearcherFactory() {
                                @Override
                                public IndexSearcher newSearcher(
                                        IndexReader reader, IndexReader previous) {
                                    IndexSearcher s = new IndexSearcher(reader);
                                    s.setSimilarity(similarity);
                                    return s;
                                }
                            });
            LOG.log(System.Logger.Level.DEBUG, "opened lexical namespace {0}", namespace);
            return new Shard(dir, writer, manager, committed);
        } catch (IOException e) {
            IOUtils.closeWhileHandlingException(dir);
            throw new UncheckedIOException("cannot open lexical index of " + namespace, e);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("lexical index is closed");
        }
    }

    private static void checkNamespace(String namespace) {
        if (namespace == null || !NAMESPACE.matcher(namespace).matches()) {
            throw new IllegalArgumentException(
                    "illegal namespace: '" + namespace + "', must match " + NAMESPACE.pattern());
        }
    }

    private static void checkDocumentId(String documentId) {
        if (documentId == null || documentId.isEmpty()) {
            throw new IllegalArgumentException(
                    "illegal documentId: '" + documentId + "', must be non-empty");
        }
    }

    /** One namespace: its directory, writer and near-real-time searcher manager. */
    private static final class Shard {
        final Directory dir;
        final IndexWriter writer;
        final SearcherManager manager;
        final long committedSeq;
        final AtomicLong writes = new AtomicLong();
        final AtomicLong refreshedWrites = new AtomicLong();

        Shard(Directory dir, IndexWriter writer, SearcherManager manager, long committedSeq) {
            this.dir = dir;
            this.writer = writer;
            this.manager = manager;
            this.committedSeq = committedSeq;
        }

        /** Read-your-writes: refresh only when this shard changed since the last refresh. */
        void refreshIfStale() throws IOException {
            long w = writes.get();
            if (refreshedWrites.get() < w) {
                manager.maybeRefreshBlocking();
                refreshedWrites.accumulateAndGet(w, Math::max);
            }
        }

        void closeQuietly() {
            IOUtils.closeWhileHandlingException(manager, writer, dir);
        }
    }
}
