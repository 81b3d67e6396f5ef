package dev.cairn.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link GraphSnapshot}: a graph read back is the graph written, down to the order of its nodes,
 * edges and bookkeeping, so it ranks the same and takes later changes the same; a byte sequence
 * that is not a whole snapshot of this version is refused with {@link IllegalArgumentException}.
 */
class GraphSnapshotTest {

    private static final String NS = "ops";
    private static final List<String> QUERIES =
            List.of(
                    "how do I fail over the primary database?",
                    "checkout-api returns errors",
                    "rotate the edge TLS certificate",
                    "payments queue is backing up",
                    "kube node not ready");

    /** Posted through the API, to a document that is not there (a placeholder entity). */
    private static final Relation API_RELATION =
            new Relation(
                    NodeRef.unresolved("checkout-api"),
                    NodeRef.unresolved("not-yet-a-document"),
                    RelationType.DEPENDS_ON,
                    0.6);

    private static Runbooks runbooks;

    @BeforeAll
    static void load() {
        runbooks = Runbooks.load();
    }

    /** The fixture in one namespace, and three runbooks in a second one with an API relation. */
    private static EntityGraph fixture() {
        EntityGraph graph = EntityGraph.inMemory();
        runbooks.ingestInto(graph, NS);
        for (Runbooks.Runbook r : runbooks.all().subList(0, 3)) {
            graph.ingest("second", r.graphDocument());
        }
        graph.addRelation("second", API_RELATION);
        // a removal leaves its traces in the gazetteer and the bookkeeping
        graph.removeDocument(NS, runbooks.all().get(5).id());
        return graph;
    }

    static byte[] write(EntityGraph graph) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GraphSnapshot.write(graph, out);
        return out.toByteArray();
    }

    static EntityGraph read(byte[] bytes) {
        return GraphSnapshot.read(new ByteArrayInputStream(bytes));
    }

    @Test
    void aGraphReadBackHoldsTheSameNodesEdgesNamesAndBookkeepingInTheSameOrder() {
        EntityGraph original = fixture();

        EntityGraph restored = read(write(original));

        assertThat(image(restored)).isEqualTo(image(original));
        assertThat(image(original).get(NS)).hasSizeGreaterThan(500); // a graph worth checking
        assertThat(write(restored)).isEqualTo(write(original));
    }

    @Test
    void aGraphReadBackRanksEveryQueryWithTheSameHitsScoresAndPaths() {
        EntityGraph original = fixture();
        EntityGraph restored = read(write(original));
        GraphSignal before = GraphSignal.create(original);
        GraphSignal after = GraphSignal.create(restored);

        for (String query : QUERIES) {
            GraphResult expected = before.rank(NS, query, 20);
            assertThat(after.rank(NS, query, 20)).as(query).isEqualTo(expected);
        }
        assertThat(before.rank(NS, QUERIES.getFirst(), 20).hits()).isNotEmpty();
    }

    @Test
    void aGraphReadBackTakesLaterChangesExactlyAsTheOriginal() {
        EntityGraph original = fixture();
        EntityGraph restored = read(write(original));
        Runbooks.Runbook removed = runbooks.all().get(5);
        Runbooks.Runbook changed = runbooks.all().get(7);

        for (EntityGraph g : List.of(original, restored)) {
            g.ingest(NS, removed.graphDocument()); // back again
            g.removeDocument(NS, changed.id());
            g.ingest("second", runbooks.all().get(9).graphDocument());
            g.removeRelation("second", API_RELATION);
            g.dropNamespace("gone");
        }

        assertThat(image(restored)).isEqualTo(image(original));
    }

    @Test
    void anEmptyGraphRoundTrips() {
        EntityGraph restored = read(write(EntityGraph.inMemory()));

        assertThat(image(restored)).isEmpty();
    }

    @Test
    void everyTruncationIsRefusedAsNotASnapshot() {
        byte[] bytes = write(fixture());
        Random random = new Random(42);
        List<Integer> cuts = new ArrayList<>(List.of(0, 1, 3, 4, 5, 9, bytes.length - 1));
        for (int i = 0; i < 200; i++) {
            cuts.add(random.nextInt(bytes.length));
        }
        for (int cut : cuts) {
            byte[] prefix = java.util.Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> read(prefix))
                    .as("cut at %d of %d (seed 42)", cut, bytes.length)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void anotherVersionOrOtherBytesAreRefused() {
        byte[] bytes = write(fixture());
        byte[] version = bytes.clone();
        version[4] = (byte) (GraphSnapshot.FORMAT_VERSION + 1);
        byte[] magic = bytes.clone();
        magic[0] ^= 0x20;
        byte[] fingerprint = bytes.clone();
        fingerprint[6] ^= 0x01;

        assertThatThrownBy(() -> read(version))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("graph snapshot version 2, expected 1");
        assertThatThrownBy(() -> read(magic))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a graph snapshot");
        assertThatThrownBy(() -> read(fingerprint))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("other node, entity or relation kinds");
        assertThatThrownBy(() -> read("{\"graph\": []}".getBytes()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Everything a namespace graph holds, in its iteration orders: nodes, edges with their ends,
     * type, confidence, weight, origin, bookkeeping by origin and document, placeholders and the
     * gazetteer (sorted: it is a hash map).
     */
    static Map<String, List<String>> image(EntityGraph graph) {
        Map<String, List<String>> out = new TreeMap<>();
        ((InMemoryEntityGraph) graph)
                .namespaces()
                .forEach(
                        (name, ns) -> {
                            List<String> lines = new ArrayList<>();
                            ns.graph.vertexSet().forEach(v -> lines.add("node " + v));
                            for (Edge e : ns.graph.edgeSet()) {
                                lines.add(edge(ns, e));
                            }
                            for (NodeRef v : ns.graph.vertexSet()) {
                                List<String> incident = new ArrayList<>();
                                ns.graph.edgesOf(v).forEach(e -> incident.add(edge(ns, e)));
                                lines.add("edges of " + v + " " + incident);
                            }
                            new TreeMap<>(ns.edgesByOrigin)
                                    .forEach(
                                            (origin, edges) -> {
                                                List<String> owned = new ArrayList<>();
                                                edges.stream()
                                                        .filter(ns.graph::containsEdge)
                                                        .forEach(e -> owned.add(edge(ns, e)));
                                                lines.add("origin '" + origin + "' " + owned);
                                            });
                            new TreeMap<>(ns.chunksByDocument)
                                    .forEach((d, c) -> lines.add("chunks of " + d + " " + c));
                            lines.add("chunk owners " + new TreeMap<>(ns.documentOfChunk));
                            lines.add("placeholders " + new java.util.TreeSet<>(ns.placeholders));
                            Gazetteer.State names = ns.gazetteer.state();
                            names.entities().stream()
                                    .map(Entity::toString)
                                    .sorted()
                                    .forEach(e -> lines.add("entity " + e));
                            lines.add("keys " + new TreeMap<>(names.idByKey()));
                            lines.add("longest name " + names.maxPhraseWords());
                            out.put(name, lines);
                        });
        return out;
    }

    private static String edge(NamespaceGraph ns, Edge e) {
        return ns.graph.getEdgeSource(e)
                + " -"
                + e
                + "/"
                + ns.graph.getEdgeWeight(e)
                + " from '"
                + e.origin
                + "'-> "
                + ns.graph.getEdgeTarget(e);
    }
}
