package dev.cairn.graph;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * A compact binary image of an in-memory {@link EntityGraph}: every namespace's gazetteer, nodes,
 * edges and the bookkeeping of which document brought which edge, so a graph read back behaves
 * exactly as the one written (same entities, edges, weights and iteration orders, hence the same
 * rankings), without running extraction over every chunk again.
 *
 * <p>Format ({@link #FORMAT_VERSION} 1), all integers unsigned LEB128 varints unless said:
 *
 * <pre>
 *   int32 magic 'CGRF', varint version, int32 enum fingerprint, varint namespace count, then per
 *   namespace (by name): the namespace name; a string table (count, then UTF-8 strings) that the
 *   rest refers to by index; the gazetteer (longest name in words; entities: id, name, kind,
 *   declared, aliases; the key table: key, entity id); the nodes in the graph's order (kind, id);
 *   the edges in the graph's order (source node, target node, type, float64 confidence, origin,
 *   structural); each origin's edges (edge indexes, in order); each document's chunks; the
 *   placeholder entities.
 * </pre>
 *
 * Enums are written by ordinal; the fingerprint (a CRC of the constants of {@link NodeKind}, {@link
 * EntityKind} and {@link RelationType}) makes a snapshot written before any of them changed
 * unreadable rather than misread. Nodes and edges are replayed in the order the graph iterates
 * them, which is insertion order, so every node's edge lists come back in their original order too.
 *
 * <p>A snapshot that is not one (truncated, wrong version or fingerprint, an index out of range)
 * fails {@link #read} with {@link IllegalArgumentException}; callers rebuild the graph from its
 * source then. Checksums of the bytes are the caller's: this class carries no integrity check of
 * its own beyond the structure. Stateless; {@link #write} reads each namespace under its read lock,
 * so it may run beside rankings, but a writer changing the graph at the same time may leave one
 * namespace out of step with another (callers write from the graph's one writer).
 */
public final class GraphSnapshot {

    /** Version of the layout above; a snapshot of another version is refused. */
    public static final int FORMAT_VERSION = 1;

    private static final int MAGIC = 0x43475246; // "CGRF"

    /** Longest string a snapshot may hold (entity names and ids are far shorter). */
    private static final int MAX_STRING_BYTES = 1 << 20;

    private static final int FINGERPRINT = fingerprint();

    private GraphSnapshot() {}

    /**
     * Writes the graph to {@code out} (not closed, flushed).
     *
     * @param graph a graph made by {@link EntityGraph#inMemory()} or {@link #read}
     * @param out where to write
     * @throws UncheckedIOException when writing fails
     */
    public static void write(EntityGraph graph, OutputStream out) {
        InMemoryEntityGraph g = inMemory(graph);
        try {
            DataOutputStream data = new DataOutputStream(out);
            data.writeInt(MAGIC);
            writeVarInt(data, FORMAT_VERSION);
            data.writeInt(FINGERPRINT);
            Map<String, NamespaceGraph> namespaces = new TreeMap<>(g.namespaces());
            writeVarInt(data, namespaces.size());
            for (Map.Entry<String, NamespaceGraph> e : namespaces.entrySet()) {
                writeString(data, e.getKey());
                NamespaceGraph ns = e.getValue();
                InMemoryEntityGraph.read(
                        ns,
                        () -> {
                            try {
                                writeNamespace(data, ns);
                            } catch (IOException x) {
                                throw new UncheckedIOException(x);
                            }
                            return null;
                        });
            }
            data.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads a graph written by {@link #write}.
     *
     * @param in the snapshot (read up to its end, not closed)
     * @return a new in-memory graph
     * @throws IllegalArgumentException when {@code in} holds no readable snapshot of this version
     * @throws UncheckedIOException when reading fails
     */
    public static EntityGraph read(InputStream in) {
        DataInputStream data = new DataInputStream(in);
        try {
            if (data.readInt() != MAGIC) {
                throw new IllegalArgumentException("not a graph snapshot");
            }
            int version = readVarInt(data);
            if (version != FORMAT_VERSION) {
                throw new IllegalArgumentException(
                        "graph snapshot version " + version + ", expected " + FORMAT_VERSION);
            }
            if (data.readInt() != FINGERPRINT) {
                throw new IllegalArgumentException(
                        "graph snapshot of other node, entity or relation kinds");
            }
            InMemoryEntityGraph graph = new InMemoryEntityGraph();
            int count = readVarInt(data);
            for (int i = 0; i < count; i++) {
                String name = readString(data);
                readNamespace(data, graph.namespace(name));
            }
            return graph;
        } catch (EOFException e) {
            throw new IllegalArgumentException("graph snapshot is truncated", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InMemoryEntityGraph inMemory(EntityGraph graph) {
        if (graph instanceof InMemoryEntityGraph g) {
            return g;
        }
        throw new IllegalArgumentException(
                "illegal graph: " + graph.getClass().getName() + ", must be in memory");
    }

    // ---- one namespace ---------------------------------------------------------------------

    /** Read lock held. */
    private static void writeNamespace(DataOutputStream out, NamespaceGraph ns) throws IOException {
        Gazetteer.State names = ns.gazetteer.state();
        Strings strings = new Strings();
        names.entities()
                .forEach(
                        e -> {
                            strings.add(e.id());
                            strings.add(e.name());
                            e.aliases().forEach(strings::add);
                        });
        names.idByKey()
                .forEach(
                        (key, id) -> {
                            strings.add(key);
                            strings.add(id);
                        });
        List<NodeRef> nodes = new ArrayList<>(ns.graph.vertexSet());
        nodes.forEach(n -> strings.add(n.id()));
        List<Edge> edges = new ArrayList<>(ns.graph.edgeSet());
        edges.forEach(e -> strings.add(e.origin));
        ns.edgesByOrigin.keySet().forEach(strings::add);
        ns.chunksByDocument.forEach(
                (doc, chunks) -> {
                    strings.add(doc);
                    chunks.forEach(strings::add);
                });
        ns.placeholders.forEach(strings::add);
        strings.write(out);

        writeVarInt(out, names.maxPhraseWords());
        writeVarInt(out, names.entities().size());
        for (Entity e : names.entities()) {
            strings.ref(out, e.id());
            strings.ref(out, e.name());
            writeVarInt(out, e.kind().ordinal());
            out.writeBoolean(e.declared());
            writeVarInt(out, e.aliases().size());
            for (String alias : e.aliases()) {
                strings.ref(out, alias);
            }
        }
        writeVarInt(out, names.idByKey().size());
        for (Map.Entry<String, String> k : new TreeMap<>(names.idByKey()).entrySet()) {
            strings.ref(out, k.getKey());
            strings.ref(out, k.getValue());
        }

        Map<NodeRef, Integer> nodeIndex = new HashMap<>(nodes.size() * 2);
        writeVarInt(out, nodes.size());
        for (NodeRef n : nodes) {
            nodeIndex.put(n, nodeIndex.size());
            writeVarInt(out, n.kind().ordinal());
            strings.ref(out, n.id());
        }
        Map<Edge, Integer> edgeIndex = new IdentityHashMap<>(edges.size() * 2);
        writeVarInt(out, edges.size());
        for (Edge e : edges) {
            edgeIndex.put(e, edgeIndex.size());
            writeVarInt(out, nodeIndex.get(ns.graph.getEdgeSource(e)));
            writeVarInt(out, nodeIndex.get(ns.graph.getEdgeTarget(e)));
            writeVarInt(out, e.type.ordinal());
            out.writeDouble(e.confidence);
            strings.ref(out, e.origin);
            out.writeBoolean(e.structural);
        }
        writeVarInt(out, ns.edgesByOrigin.size());
        for (Map.Entry<String, List<Edge>> o : ns.edgesByOrigin.entrySet()) {
            strings.ref(out, o.getKey());
            // an edge no longer in the graph is dead weight in the list: every reader skips it
            List<Integer> live = new ArrayList<>(o.getValue().size());
            for (Edge e : o.getValue()) {
                Integer index = edgeIndex.get(e);
                if (index != null) {
                    live.add(index);
                }
            }
            writeVarInt(out, live.size());
            for (int index : live) {
                writeVarInt(out, index);
            }
        }
        writeVarInt(out, ns.chunksByDocument.size());
        for (Map.Entry<String, List<String>> d : ns.chunksByDocument.entrySet()) {
            strings.ref(out, d.getKey());
            writeVarInt(out, d.getValue().size());
            for (String chunk : d.getValue()) {
                strings.ref(out, chunk);
            }
        }
        writeVarInt(out, ns.placeholders.size());
        for (String p : ns.placeholders) {
            strings.ref(out, p);
        }
    }

    /** Fills a new, empty namespace graph (no other thread can see it yet). */
    private static void readNamespace(DataInputStream in, NamespaceGraph ns) throws IOException {
        int stringCount = readVarInt(in);
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < stringCount; i++) {
            strings.add(readString(in));
        }

        int maxPhraseWords = readVarInt(in);
        int entityCount = readVarInt(in);
        List<Entity> entities = new ArrayList<>();
        for (int i = 0; i < entityCount; i++) {
            String id = string(in, strings);
            String name = string(in, strings);
            EntityKind kind = constant(EntityKind.values(), readVarInt(in));
            boolean declared = in.readBoolean();
            int aliasCount = readVarInt(in);
            List<String> aliases = new ArrayList<>();
            for (int a = 0; a < aliasCount; a++) {
                aliases.add(string(in, strings));
            }
            entities.add(new Entity(id, name, kind, aliases, declared));
        }
        int keyCount = readVarInt(in);
        Map<String, String> idByKey = new HashMap<>();
        for (int i = 0; i < keyCount; i++) {
            idByKey.put(string(in, strings), string(in, strings));
        }
        ns.gazetteer.restore(new Gazetteer.State(entities, idByKey, maxPhraseWords));

        int nodeCount = readVarInt(in);
        List<NodeRef> nodes = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++) {
            NodeRef node =
                    new NodeRef(constant(NodeKind.values(), readVarInt(in)), string(in, strings));
            if (!ns.graph.addVertex(node)) {
                throw new IllegalArgumentException("graph snapshot repeats node " + node);
            }
            nodes.add(node);
        }
        int edgeCount = readVarInt(in);
        List<Edge> edges = new ArrayList<>();
        for (int i = 0; i < edgeCount; i++) {
            NodeRef from = element(nodes, readVarInt(in), "node");
            NodeRef to = element(nodes, readVarInt(in), "node");
            RelationType type = constant(RelationType.values(), readVarInt(in));
            double confidence = in.readDouble();
            String origin = string(in, strings);
            boolean structural = in.readBoolean();
            Edge edge = new Edge(type, confidence, origin, structural);
            ns.graph.addEdge(from, to, edge);
            ns.graph.setEdgeWeight(edge, edge.defaultWeight());
            edges.add(edge);
        }
        int originCount = readVarInt(in);
        for (int i = 0; i < originCount; i++) {
            String origin = string(in, strings);
            int n = readVarInt(in);
            List<Edge> owned = new ArrayList<>();
            for (int e = 0; e < n; e++) {
                owned.add(element(edges, readVarInt(in), "edge"));
            }
            ns.edgesByOrigin.put(origin, owned);
        }
        int documentCount = readVarInt(in);
        for (int i = 0; i < documentCount; i++) {
            String document = string(in, strings);
            int n = readVarInt(in);
            List<String> chunks = new ArrayList<>();
            for (int c = 0; c < n; c++) {
                String chunk = string(in, strings);
                chunks.add(chunk);
                ns.documentOfChunk.put(chunk, document);
            }
            ns.chunksByDocument.put(document, chunks);
        }
        int placeholderCount = readVarInt(in);
        for (int i = 0; i < placeholderCount; i++) {
            ns.placeholders.add(string(in, strings));
        }
    }

    // ---- primitives ------------------------------------------------------------------------

    /** A namespace's distinct strings, written once and referred to by index. */
    private static final class Strings {
        private final Map<String, Integer> index = new LinkedHashMap<>();

        void add(String s) {
            index.putIfAbsent(s, index.size());
        }

        void write(DataOutputStream out) throws IOException {
            writeVarInt(out, index.size());
            for (String s : index.keySet()) {
                writeString(out, s);
            }
        }

        void ref(DataOutputStream out, String s) throws IOException {
            Integer i = index.get(s);
            if (i == null) {
                throw new IllegalStateException("string missing from the table: " + s);
            }
            writeVarInt(out, i);
        }
    }

    private static String string(DataInputStream in, List<String> strings) throws IOException {
        return element(strings, readVarInt(in), "string");
    }

    private static <T> T element(List<T> list, int index, String what) {
        if (index >= list.size()) {
            throw new IllegalArgumentException(
                    "graph snapshot refers to " + what + " " + index + " of " + list.size());
        }
        return list.get(index);
    }

    private static <E extends Enum<E>> E constant(E[] values, int ordinal) {
        if (ordinal >= values.length) {
            throw new IllegalArgumentException(
                    "graph snapshot holds constant "
                            + ordinal
                            + " of "
                            + values[0].getDeclaringClass().getSimpleName());
        }
        return values[ordinal];
    }

    static void writeVarInt(DataOutputStream out, int value) throws IOException {
        if (value < 0) {
            throw new IllegalArgumentException("illegal varint: " + value + ", must be >= 0");
        }
        while ((value & ~0x7F) != 0) {
            out.writeByte((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.writeByte(value);
    }

    static int readVarInt(DataInputStream in) throws IOException {
        int value = 0;
        for (int shift = 0; shift < 32; shift += 7) {
            int b = in.readUnsignedByte();
            if (shift == 28 && b > 0x07) {
                break; // more than 31 bits
            }
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("graph snapshot holds a malformed number");
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        writeVarInt(out, bytes.length);
        out.write(bytes);
    }

    private static String readString(DataInputStream in) throws IOException {
        int length = readVarInt(in);
        if (length > MAX_STRING_BYTES) {
            throw new IllegalArgumentException(
                    "graph snapshot holds a string of " + length + " bytes");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static int fingerprint() {
        CRC32 crc = new CRC32();
        for (Enum<?>[] constants :
                List.<Enum<?>[]>of(NodeKind.values(), EntityKind.values(), RelationType.values())) {
            for (Enum<?> c : constants) {
                crc.update(
                        (c.getDeclaringClass().getSimpleName() + "." + c.name() + "\n")
                                .getBytes(StandardCharsets.UTF_8));
            }
        }
        return (int) crc.getValue();
    }
}
