package dev.cairn.benchmarks;

import dev.cairn.graph.ChunkEntities;
import dev.cairn.graph.EntityGraph;
import dev.cairn.graph.EntityKind;
import dev.cairn.graph.GraphResult;
import dev.cairn.graph.GraphSignal;
import dev.cairn.graph.Mention;
import dev.cairn.graph.NodeRef;
import dev.cairn.graph.Proximity;
import dev.cairn.graph.ProximityConfig;
import dev.cairn.graph.Relation;
import dev.cairn.graph.RelationType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of the graph signal ({@link GraphSignal#rank}) on a synthetic seeded namespace of {@value
 * #ENTITIES} entities and {@value #RELATIONS} typed relations, {@value #DOCUMENTS} documents of
 * {@value #CHUNKS_PER_DOCUMENT} chunks each mentioning {@value #MENTIONS_PER_CHUNK} entities.
 * Entity popularity is skewed ({@code index = N * u^2}), so a few hub entities have thousands of
 * edges, as real platform names ("kubernetes", "postgres") do; relation types are drawn from {@code
 * TYPES}; {@value #SUPERSEDING_SHARE} of the documents supersede another one. Target: p95 <= 10 ms
 * per query.
 *
 * <p>Modes: {@code rank} alone (SampleTime, one thread), and {@code readWrite}: one thread ranking
 * while another re-upserts documents, to see what the namespace's read/write lock costs readers.
 *
 * <p>Counts: 3 warm-up iterations of 2 s reach steady state (C2 compiles the expansion loop in well
 * under a second; a query is ~0.1-5 ms, so thousands of calls per iteration); 5 measured iterations
 * of 2 s give tens of thousands of samples for stable p95/p99; one fork, because building the
 * 50k-entity graph takes seconds and its layout varies little between JVMs. The setup checks that
 * both strategies link the same entities and both return hits, so the comparison is between working
 * implementations.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar GraphSignalBenchmark}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgs = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class GraphSignalBenchmark {

    static final int ENTITIES = 50_000;
    static final int RELATIONS = 200_000;
    static final int DOCUMENTS = 10_000;
    static final int CHUNKS_PER_DOCUMENT = 4;
    static final int MENTIONS_PER_CHUNK = 3;
    static final long SEED = 42L;
    static final String NS = "bench";
    static final int QUERIES = 1024;

    private static final String[] SUFFIXES = {"api", "db", "queue", "worker", "cache"};
    private static final RelationType[] TYPES = {
        RelationType.DEPENDS_ON, RelationType.DEPENDS_ON, RelationType.RELATED_TO,
        RelationType.RELATED_TO, RelationType.PART_OF, RelationType.GOVERNS,
        RelationType.MENTIONS, RelationType.CONTRADICTS
    };

    /** Share of documents that supersede another one (runbooks get replaced, but rarely). */
    static final double SUPERSEDING_SHARE = 0.05;

    @Param({"WEIGHTED_EXPANSION", "PERSONALIZED_PAGERANK"})
    public Proximity strategy;

    EntityGraph graph;
    GraphSignal signal;
    List<String> queries;

    /** Per-thread position in the query and document sequences. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;
        int nextDocument;
    }

    /** Name of synthetic entity {@code i}: a service-like name the extractor recognises. */
    static String entityName(int i) {
        return "e" + i + "-" + SUFFIXES[i % SUFFIXES.length];
    }

    /** Skewed entity index: {@code N * u^2} puts more weight on low indexes. */
    static int skewed(SplittableRandom random) {
        double u = random.nextDouble();
        return (int) (ENTITIES * u * u);
    }

    /** One synthetic document: its chunks' mentions and its share of the relations. */
    static void upsertDocument(EntityGraph graph, int d, long seed) {
        SplittableRandom random = new SplittableRandom(seed * 1_000_003L + d);
        List<ChunkEntities> chunks = new ArrayList<>(CHUNKS_PER_DOCUMENT);
        for (int c = 0; c < CHUNKS_PER_DOCUMENT; c++) {
            List<Mention> mentions = new ArrayList<>(MENTIONS_PER_CHUNK);
            for (int m = 0; m < MENTIONS_PER_CHUNK; m++) {
                String name = entityName(skewed(random));
                mentions.add(
                        new Mention(
                                name, name, EntityKind.SERVICE, m * 20, m * 20 + name.length()));
            }
            chunks.add(new ChunkEntities("d" + d + "#" + c, mentions));
        }
        int perDocument = RELATIONS / DOCUMENTS;
        List<Relation> relations = new ArrayList<>(perDocument);
        NodeRef self = NodeRef.document("d" + d);
        for (int r = 0; r < perDocument; r++) {
            RelationType type = TYPES[random.nextInt(TYPES.length)];
            NodeRef to = NodeRef.entity(entityName(skewed(random)));
            if (r == 0 && random.nextDouble() < SUPERSEDING_SHARE) {
                relations.add(
                        Relation.of(
                                self,
                                RelationType.SUPERSEDES,
                                NodeRef.document("d" + random.nextInt(DOCUMENTS))));
            } else if (type == RelationType.GOVERNS) {
                relations.add(Relation.of(self, type, to));
            } else {
                relations.add(Relation.of(NodeRef.entity(entityName(skewed(random))), type, to));
            }
        }
        graph.upsertDocument(NS, "d" + d, chunks, relations);
    }

    /**
     * The synthetic namespace. Every entity gets at least one relation, so all {@value #ENTITIES}
     * exist.
     */
    static EntityGraph build(long seed) {
        EntityGraph graph = EntityGraph.inMemory();
        // A service catalogue declares its entities, as runbook front matter does; queries link
        // only to declared entities (and self-evident kinds such as alerts and hosts).
        for (int i = 0; i < ENTITIES; i++) {
            graph.gazetteer(NS)
                    .declare(
                            new dev.cairn.graph.EntityDeclaration(
                                    entityName(i), EntityKind.SERVICE, List.of()));
        }
        List<ChunkEntities> none = List.of();
        List<Relation> ring = new ArrayList<>();
        for (int i = 0; i < ENTITIES; i++) {
            ring.add(
                    Relation.of(
                            NodeRef.entity(entityName(i)),
                            RelationType.RELATED_TO,
                            NodeRef.entity(entityName((i + 1) % ENTITIES))));
        }
        graph.upsertDocument(NS, "catalogue", none, ring);
        for (int d = 0; d < DOCUMENTS; d++) {
            upsertDocument(graph, d, seed);
        }
        return graph;
    }

    /** Queries naming one or two entities, uniformly chosen. */
    static List<String> queries(long seed) {
        SplittableRandom random = new SplittableRandom(seed + 7);
        List<String> queries = new ArrayList<>(QUERIES);
        for (int q = 0; q < QUERIES; q++) {
            String a = entityName(random.nextInt(ENTITIES));
            queries.add(
                    q % 2 == 0
                            ? "how do I restart " + a
                            : a
                                    + " errors after the "
                                    + entityName(random.nextInt(ENTITIES))
                                    + " change");
        }
        return queries;
    }

    @Setup(Level.Trial)
    public void setUp() {
        graph = build(SEED);
        signal = GraphSignal.create(graph, ProximityConfig.defaults().withStrategy(strategy));
        queries = queries(SEED);
        GraphSignal other =
                GraphSignal.create(
                        graph,
                        ProximityConfig.defaults()
                                .withStrategy(
                                        strategy == Proximity.WEIGHTED_EXPANSION
                                                ? Proximity.PERSONALIZED_PAGERANK
                                                : Proximity.WEIGHTED_EXPANSION));
        for (String query : queries.subList(0, 32)) {
            GraphResult mine = signal.rank(NS, query, 10);
            GraphResult theirs = other.rank(NS, query, 10);
            if (!mine.entities().equals(theirs.entities())
                    || mine.entities().isEmpty()
                    || mine.hits().isEmpty() != theirs.hits().isEmpty()) {
                throw new IllegalStateException(
                        "strategies disagree on seed " + SEED + " query '" + query + "'");
            }
        }
    }

    @Benchmark
    public GraphResult rank(Cursor cursor) {
        String query = queries.get(cursor.next++ & (QUERIES - 1));
        return signal.rank(NS, query, 100);
    }

    @Benchmark
    @Group("readWrite")
    @GroupThreads(1)
    public GraphResult readWhileWriting(Cursor cursor) {
        String query = queries.get(cursor.next++ & (QUERIES - 1));
        return signal.rank(NS, query, 100);
    }

    @Benchmark
    @Group("readWrite")
    @GroupThreads(1)
    public int writeWhileReading(Cursor cursor) {
        int d = cursor.nextDocument++ % DOCUMENTS;
        upsertDocument(graph, d, SEED);
        return d;
    }
}
