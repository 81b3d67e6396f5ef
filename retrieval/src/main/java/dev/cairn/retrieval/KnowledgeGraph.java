package dev.cairn.retrieval;

import dev.cairn.graph.ChunkEntities;
import dev.cairn.graph.DocumentGraph;
import dev.cairn.graph.Entity;
import dev.cairn.graph.EntityDeclaration;
import dev.cairn.graph.EntityDetail;
import dev.cairn.graph.EntityGraph;
import dev.cairn.graph.EntityKind;
import dev.cairn.graph.EntitySummary;
import dev.cairn.graph.Extraction;
import dev.cairn.graph.GraphDocument;
import dev.cairn.graph.GraphHit;
import dev.cairn.graph.GraphRelation;
import dev.cairn.graph.GraphResult;
import dev.cairn.graph.GraphSignal;
import dev.cairn.graph.IngestSummary;
import dev.cairn.graph.NodeRef;
import dev.cairn.graph.ProximityConfig;
import dev.cairn.graph.Relation;
import dev.cairn.graph.RelationType;
import dev.cairn.retrieval.fusion.ScoredId;
import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.StoredChunk;
import dev.cairn.retrieval.store.StoredDocument;
import dev.cairn.store.Change;
import dev.cairn.store.DerivedIndex;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The entity graph as a retrieval signal, kept current from the store.
 *
 * <p>Design. Entities and relations a document yields are derived from its content, so the
 * in-memory {@link EntityGraph} follows the store's change sequence like the Lucene and dense
 * indexes do: it is a {@link DerivedIndex} of the store's change log, and {@link #apply}; a {@code
 * DOCUMENT} change re-reads the document's current chunks and front matter declarations from the
 * store and replaces the document's part of the graph (or removes it when the document is gone), a
 * {@code NAMESPACE} delete drops the namespace, a {@code RELATION} change adds a relation created
 * through {@code POST relations}. Because a change is applied by reading the current state,
 * applying one twice or out of date is harmless. The same catch-up writes what extraction derived
 * (extracted entities, text relations, chunk links) into the V005 tables, keyed by document, so
 * both stores hold the graph they serve. Front matter declarations are written by {@link
 * KnowledgeBase#ingest} before the document (they are primary data, like API relations).
 *
 * <p>Start. Rebuilding means extracting entities from every chunk again (seconds per few hundred
 * documents), so a graph opened with a snapshot file loads the graph as it last saved it ({@link
 * GraphSnapshotFile}: its binary image, the change it reflects, the API relations applied) and the
 * change log delivers what changed since, like for any derived index behind the store. Without a
 * snapshot to trust, the graph is rebuilt from the store: every namespace's declarations first (so
 * the gazetteer knows every declared name before any text is read), then each document's chunks,
 * then the API relations; and the snapshot is written at once. While running, {@link #commit}
 * writes it at most every {@link #SNAPSHOT_INTERVAL}, and {@link #close()} once more.
 *
 * <p>Thread-safe: the graph locks per namespace; changes arrive serially from the change log, and
 * the snapshot is written from its commit, so no change is applied while it is written. {@link
 * #close()} stops following the log.
 *
 * <p>Why about 500 lines: applying a change, rebuilding and loading the snapshot all keep the same
 * three pieces of state in step (the graph, the applied API relations, the position), which is why
 * they live together; extraction, ranking and the snapshot codec are elsewhere.
 */
public final class KnowledgeGraph
        implements GraphRanker, DerivedIndex.ChangeByChange, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(KnowledgeGraph.class.getName());

    /**
     * How often, at most, the snapshot is written while changes arrive (and once more at {@link
     * #close()}). Writing one costs a few milliseconds per hundred documents; the changes after it
     * are replayed from the change log at the next open, so a crash costs at most this much of
     * catch-up.
     */
    static final Duration SNAPSHOT_INTERVAL = Duration.ofSeconds(30);

    private final Store store;
    private final DocumentRepository documents;
    private final EntityGraph graph;
    private final GraphSignal signal;
    private final EntityRepository repository;
    private final GraphSnapshotFile snapshots;
    private final Set<String> appliedApiRelations = ConcurrentHashMap.newKeySet();
    private final Map<String, Map<String, Set<String>>> supersessions = new ConcurrentHashMap<>();
    private volatile long position;
    // written by the change log's thread (commit) and close, both under the change log's lock
    private long savedPosition = -1;
    private long savedNanos;
    private volatile boolean closing;
    private boolean fromSnapshot;

    private KnowledgeGraph(
            Store store, ProximityConfig config, EntityGraph graph, GraphSnapshotFile snapshots) {
        this.store = store;
        this.documents = DocumentRepository.over(store);
        this.graph = graph;
        this.signal = GraphSignal.create(graph, config);
        this.repository = new EntityRepository(store.sql());
        this.snapshots = snapshots;
    }

    /** A graph over {@code store} with default proximity settings, rebuilt from the store. */
    public static KnowledgeGraph open(Store store) {
        return open(store, ProximityConfig.defaults());
    }

    /** A graph over {@code store}, rebuilt from the store and following its change log. */
    public static KnowledgeGraph open(Store store, ProximityConfig config) {
        return open(store, config, GraphSnapshotFile.NONE);
    }

    /**
     * A graph over {@code store} following its change log, loaded from the snapshot in {@code
     * snapshotFile} when there is one to trust for this store (see {@link GraphSnapshotFile}) and
     * caught up from the change log past it, else rebuilt from the store; the snapshot is kept
     * current while the graph runs and written once more at {@link #close()}.
     */
    public static KnowledgeGraph open(Store store, ProximityConfig config, Path snapshotFile) {
        return open(store, config, GraphSnapshotFile.at(snapshotFile));
    }

    static KnowledgeGraph open(Store store, ProximityConfig config, GraphSnapshotFile snapshots) {
        long start = System.nanoTime();
        Optional<GraphSnapshotFile.Loaded> loaded =
                snapshots.enabled()
                        ? snapshots.load(store.instanceId(), store.lastChangeSeq())
                        : Optional.empty();
        KnowledgeGraph kg;
        if (loaded.isPresent()) {
            GraphSnapshotFile.Loaded snapshot = loaded.get();
            kg = new KnowledgeGraph(store, config, snapshot.graph(), snapshots);
            kg.position = snapshot.position();
            kg.appliedApiRelations.addAll(snapshot.apiRelations());
            kg.savedPosition = snapshot.position();
            kg.savedNanos = System.nanoTime();
            kg.fromSnapshot = true;
            long loadedAt = System.nanoTime();
            long behind = store.lastChangeSeq() - snapshot.position();
            store.changeLog().follow(kg); // catches up past the snapshot
            LOG.log(
                    Level.INFO,
                    "entity graph loaded from its snapshot at change {0} in {1} ms, then caught up"
                            + " {2} changes in {3} ms",
                    snapshot.position(),
                    (loadedAt - start) / 1_000_000,
                    behind,
                    (System.nanoTime() - loadedAt) / 1_000_000);
        } else {
            kg = new KnowledgeGraph(store, config, EntityGraph.inMemory(), snapshots);
            kg.rebuild();
            kg.save(); // the next open loads it, even after a crash; before the loop may commit
            store.changeLog().follow(kg);
        }
        return kg;
    }

    /** Whether this graph was loaded from its snapshot rather than rebuilt from the store. */
    boolean loadedFromSnapshot() {
        return fromSnapshot;
    }

    @Override
    public void close() {
        closing = true; // unfollow commits, and a closing graph's commit writes the snapshot
        store.changeLog().unfollow(this);
    }

    /**
     * Graph hits scoring below this share of the best hit are not passed to fusion. Rank fusion
     * sees only ranks, so a chunk three weak hops away would otherwise add nearly as much as one
     * the query's entity governs; in the runbook fixture that tail lifted unrelated runbooks (an
     * object-storage page two {@code depends_on} hops from the database) above the governing one.
     */
    static final double RELATIVE_FLOOR = 0.5;

    /**
     * Nor are hits no closer than one bare mention (a path of {@code mentions} only scores at most
     * its weight, 0.35; a typed relation with its hop decay scores more). That a chunk mentions the
     * query's entity is what BM25 already sees; the graph's own evidence is the typed relations
     * (governs, depends_on, supersedes, ...) the text does not state. On SciFact, where queries
     * link only through identifiers extracted from the text and so only through mentions, letting
     * those vote cost up to 0.02 nDCG@10.
     */
    static final double ABSOLUTE_FLOOR = RelationType.MENTIONS.defaultWeight();

    /** The in-memory graph (read it; change it only through the store). */
    public EntityGraph graph() {
        return graph;
    }

    // ---- retrieval signal ----------------------------------------------------------------

    @Override
    public Ranking rank(String namespace, String query, int topN) {
        GraphResult result = signal.rank(namespace, query, topN);
        List<ScoredId> chunks = new ArrayList<>(result.hits().size());
        Map<String, List<GraphContext.TraversedRelation>> paths = new LinkedHashMap<>();
        double floor =
                result.hits().isEmpty()
                        ? 0
                        : Math.max(
                                RELATIVE_FLOOR * result.hits().getFirst().score(), ABSOLUTE_FLOOR);
        for (GraphHit hit : result.hits()) {
            if (hit.score() < floor) {
                break;
            }
            chunks.add(new ScoredId(hit.chunkId(), hit.score()));
            paths.put(hit.chunkId(), hit.path().stream().map(KnowledgeGraph::traversed).toList());
        }
        GraphContext context =
                new GraphContext(
                        result.entities().stream()
                                .map(e -> new GraphContext.LinkedEntity(e.id(), e.name()))
                                .toList(),
                        result.relations().stream().map(KnowledgeGraph::traversed).toList());
        return new Ranking(chunks, context, paths);
    }

    static GraphContext.TraversedRelation traversed(GraphRelation r) {
        return new GraphContext.TraversedRelation(
                r.from().toString(), r.to().toString(), r.type().wireName(), r.weight());
    }

    // ---- entities and relations ----------------------------------------------------------

    /** Entities whose name or alias contains {@code query}; see {@link EntityGraph}. */
    public List<EntitySummary> searchEntities(String namespace, String query, int limit) {
        return graph.searchEntities(namespace, query, limit);
    }

    /** An entity by id ({@code ledger-db} or {@code entity:ledger-db}), name or alias. */
    public Optional<EntityDetail> entity(String namespace, String id) {
        String key = id.startsWith("entity:") ? id.substring("entity:".length()) : id;
        return graph.entity(namespace, key);
    }

    /** The entities a document mentions and the relations it brought; empty when unknown. */
    public Optional<DocumentGraph> document(String namespace, String documentId) {
        return graph.document(namespace, documentId);
    }

    /**
     * Stores a relation from {@code POST relations} (source {@code api}) with its {@code RELATION}
     * change, or finds the one with the same ends and type posted before; the graph picks a new one
     * up when the change log next catches up, and {@link #locate} tells where its ends land.
     *
     * @param from entity name or document id
     * @param to entity name or document id
     * @throws NoSuchElementException when the namespace does not exist
     */
    public AddedRelation addRelation(
            String namespace, String from, String to, RelationType type, double confidence) {
        Relation relation =
                new Relation(NodeRef.unresolved(from), NodeRef.unresolved(to), type, confidence);
        if (relation.from().id().equals(relation.to().id())) {
            throw new IllegalArgumentException(
                    "illegal relation: " + from + " -> " + to + ", ends must differ");
        }
        EntityRepository.AddedRelation added = repository.addApiRelation(namespace, relation);
        Relation stored = added.stored().relation();
        return new AddedRelation(
                new GraphRelation(
                        stored.from(),
                        stored.to(),
                        type,
                        type.defaultWeight() * stored.confidence()),
                stored.confidence(),
                added.created());
    }

    /**
     * A relation from {@code POST relations} with the confidence it was stored with, and whether
     * this call stored it (false: the same ends and type were posted before).
     */
    public record AddedRelation(GraphRelation relation, double confidence, boolean created) {}

    /**
     * The relation with its ends as the graph resolves them now (a document, or an entity by name
     * or alias); call it after the change log caught up with the relation.
     */
    public GraphRelation locate(String namespace, GraphRelation relation) {
        return new GraphRelation(
                graph.locate(namespace, relation.from()),
                graph.locate(namespace, relation.to()),
                relation.type(),
                relation.weight());
    }

    @Override
    public Set<String> successors(String namespace, String documentId) {
        return supersessions
                .computeIfAbsent(namespace, repository::supersessions)
                .getOrDefault(documentId, Set.of());
    }

    // ---- change sequence -----------------------------------------------------------------

    @Override
    public String name() {
        return "entity-graph";
    }

    /** The store's last change before the graph was last rebuilt, or the last change applied. */
    @Override
    public long lastAppliedSeq() {
        return position;
    }

    @Override
    public void applied(long seq) {
        position = seq;
    }

    /** Writes the snapshot when changes were applied since the last one and it is due. */
    @Override
    public void commit() {
        if (position != savedPosition
                && (closing || System.nanoTime() - savedNanos >= SNAPSHOT_INTERVAL.toNanos())) {
            save();
        }
    }

    /**
     * Writes the snapshot of the graph at {@link #position}; called where no change is applied
     * meanwhile (the change log's commit, or right after the graph was built). A failure is logged:
     * the previous snapshot stays, and the change log replays what it lacks.
     */
    private void save() {
        if (!snapshots.enabled()) {
            return;
        }
        long start = System.nanoTime();
        long at = position;
        try {
            snapshots.save(graph, Set.copyOf(appliedApiRelations), store.instanceId(), at);
            savedPosition = at;
            savedNanos = System.nanoTime();
            LOG.log(
                    Level.DEBUG,
                    "entity graph snapshot written at change {0} in {1} ms",
                    at,
                    (savedNanos - start) / 1_000_000);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "entity graph snapshot not written; the previous one stays", e);
        }
    }

    @Override
    public void reset() {
        for (String ns : namespaces()) {
            graph.dropNamespace(ns);
        }
        appliedApiRelations.clear();
        supersessions.clear();
        rebuild();
    }

    @Override
    public void apply(Change change) {
        String ns = change.namespace();
        if (change.kind() == Change.Kind.DOCUMENT
                || change.kind() == Change.Kind.RELATION
                || change.kind() == Change.Kind.NAMESPACE) {
            supersessions.remove(ns);
        }
        switch (change.kind()) {
            case DOCUMENT -> {
                Optional<StoredDocument> document = documents.document(ns, change.entityId());
                if (document.isPresent()) {
                    index(ns, document.get(), true);
                } else {
                    graph.removeDocument(ns, change.entityId());
                    if (store.namespace(ns).isPresent()) {
                        repository.removeDocument(ns, change.entityId());
                    }
                }
            }
            case NAMESPACE -> {
                if (change.op() == Change.Op.DELETE) {
                    graph.dropNamespace(ns);
                    appliedApiRelations.removeIf(k -> k.startsWith(ns + "\n"));
                }
            }
            case RELATION -> {
                if (change.op() == Change.Op.UPSERT) {
                    repository
                            .apiRelation(ns, change.entityId())
                            .ifPresent(r -> applyApiRelation(ns, r));
                }
            }
            default -> {
                // other components' changes
            }
        }
    }

    private void applyApiRelation(String ns, EntityRepository.StoredRelation r) {
        if (appliedApiRelations.add(ns + "\n" + r.id())) {
            try {
                graph.addRelation(ns, r.relation());
            } catch (IllegalArgumentException e) {
                LOG.log(Level.WARNING, "skipped relation " + r.id() + " in " + ns, e);
            }
        }
    }

    /** Replaces a document's part of the graph; {@code persist} writes the derived rows. */
    private void index(String ns, StoredDocument document, boolean persist) {
        EntityRepository.Declarations declarations = repository.declarations(ns, document.id());
        List<StoredChunk> stored = documents.chunks(ns, document.id());
        List<GraphDocument.Chunk> chunks = new ArrayList<>(stored.size());
        for (int i = 0; i < stored.size(); i++) {
            StoredChunk c = stored.get(i);
            String text = i == 0 ? document.title() + "\n" + c.text() : c.text();
            chunks.add(new GraphDocument.Chunk(c.id(), text));
        }
        IngestSummary summary =
                graph.ingest(
                        ns,
                        new GraphDocument(
                                document.id(),
                                declarations.entities(),
                                chunks,
                                declarations.relations()));
        if (!persist) {
            return;
        }
        int declared = declarations.relations().values().stream().mapToInt(List::size).sum();
        List<Relation> textRelations =
                summary.relations().subList(0, summary.relations().size() - declared);
        List<ChunkEntities> links = new ArrayList<>(chunks.size());
        var extractor = graph.extractor(ns);
        for (GraphDocument.Chunk chunk : chunks) {
            Extraction extraction = extractor.extract(chunk.text());
            links.add(new ChunkEntities(chunk.id(), extraction.mentions()));
        }
        Set<String> declaredIds = ConcurrentHashMap.newKeySet();
        declarations
                .entities()
                .forEach(e -> declaredIds.add(dev.cairn.graph.Canonical.key(e.name())));
        List<EntityDeclaration> extracted = new ArrayList<>();
        for (String id : summary.entityIds()) {
            if (declaredIds.contains(id)) {
                continue;
            }
            graph.gazetteer(ns)
                    .entity(id)
                    .map(KnowledgeGraph::declaration)
                    .ifPresent(extracted::add);
        }
        try {
            repository.replaceDerived(ns, document.id(), extracted, textRelations, links);
        } catch (NoSuchElementException e) {
            LOG.log(Level.DEBUG, "namespace {0} went away while indexing", ns);
        }
    }

    private static EntityDeclaration declaration(Entity e) {
        EntityKind kind = e.kind();
        return new EntityDeclaration(e.name(), kind, e.aliases());
    }

    /** Rebuilds every namespace's graph from the store; changes after {@link #position} follow. */
    void rebuild() {
        long start = System.nanoTime();
        position = store.lastChangeSeq();
        int documents = 0;
        for (String ns : namespaces()) {
            List<StoredDocument> docs = documents(ns);
            for (StoredDocument d : docs) {
                for (EntityDeclaration e : repository.declarations(ns, d.id()).entities()) {
                    graph.gazetteer(ns).declare(e);
                }
            }
            for (StoredDocument d : docs) {
                index(ns, d, false);
            }
            for (EntityRepository.StoredRelation r :
                    repository.relations(ns, "", EntityRepository.Source.API)) {
                applyApiRelation(ns, r);
            }
            documents += docs.size();
        }
        LOG.log(
                Level.INFO,
                "entity graph rebuilt from the store: {0} documents in {1} ms",
                documents,
                (System.nanoTime() - start) / 1_000_000);
    }

    private List<String> namespaces() {
        List<String> out = new ArrayList<>();
        Page.forEachItem(PageRequest.MAX_LIMIT, store::namespaces, n -> out.add(n.name()));
        return out;
    }

    private List<StoredDocument> documents(String ns) {
        List<StoredDocument> out = new ArrayList<>();
        PageRequest page = PageRequest.first(PageRequest.MAX_LIMIT);
        while (true) {
            Page<StoredDocument> p = documents.documents(ns, page, "");
            out.addAll(p.items());
            if (!p.hasMore()) {
                return out;
            }
            page = new PageRequest(PageRequest.MAX_LIMIT, p.nextCursor());
        }
    }
}
