package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.graph.ProximityConfig;
import dev.cairn.retrieval.ingest.DocumentParser;
import dev.cairn.store.Store;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot that must not be trusted (damaged, truncated, of another version, database or build,
 * ahead of the store) is ignored with one log line and the graph is rebuilt: never a failed open,
 * never a graph that differs from the store's.
 */
class GraphSnapshotFileTest {

    @TempDir Path dir;
    Store store;
    KnowledgeBase kb;
    KnowledgeGraph graph;
    final Logs logs = new Logs();

    static final String NS = "ops";

    /** Held here: a logger only weakly referenced may be collected with the level set on it. */
    static final Logger LOGGER = Logger.getLogger(GraphSnapshotFile.class.getName());

    @BeforeEach
    void open() {
        store = Store.embedded(dir.resolve("data"));
        store.createNamespace(NS, "test");
        graph = KnowledgeGraph.open(store, ProximityConfig.defaults(), snapshot());
        kb =
                KnowledgeBase.open(
                        store,
                        TestModel.get(),
                        dir.resolve("lucene"),
                        graph,
                        RetrievalConfig.defaults());
        kb.ingest(NS, DocumentParser.parseMarkdown(GraphSnapshotContractTest.PROMOTE, "p.md"));
        kb.ingest(NS, DocumentParser.parseMarkdown(GraphSnapshotContractTest.CHECKOUT, "c.md"));
        kb.catchUp();
        graph.close(); // writes the snapshot
        LOGGER.setLevel(java.util.logging.Level.INFO);
        LOGGER.addHandler(logs);
    }

    @AfterEach
    void close() {
        LOGGER.removeHandler(logs);
        kb.close();
        graph.close();
        store.close();
    }

    Path snapshot() {
        return dir.resolve("entity-graph.snapshot");
    }

    /** Opens the graph over the snapshot as it is now, for the test to close. */
    KnowledgeGraph reopen() {
        graph = KnowledgeGraph.open(store, ProximityConfig.defaults(), snapshot());
        return graph;
    }

    void expectRebuiltWithOneLine(String reason) {
        KnowledgeGraph opened = reopen();
        assertThat(opened.loadedFromSnapshot()).isFalse();
        assertThat(logs.messages).singleElement().asString().contains(reason, "rebuilding");
        try (KnowledgeGraph rebuilt = KnowledgeGraph.open(store)) {
            assertThat(image(opened)).isEqualTo(image(rebuilt));
        }
        // the rebuild wrote a snapshot the next open trusts
        logs.messages.clear();
        opened.close();
        assertThat(reopen().loadedFromSnapshot()).isTrue();
        assertThat(logs.messages).isEmpty();
    }

    List<String> image(KnowledgeGraph kg) {
        return GraphImage.of(
                kg, NS, List.of("promote", "checkout"), GraphSnapshotContractTest.QUERIES);
    }

    @Test
    void aTrustedSnapshotIsLoadedSilently() {
        assertThat(reopen().loadedFromSnapshot()).isTrue();
        assertThat(logs.messages).isEmpty();
    }

    @Test
    void aDamagedSnapshotIsIgnored() throws IOException {
        byte[] bytes = Files.readAllBytes(snapshot());
        bytes[bytes.length / 2] ^= 0x10;
        Files.write(snapshot(), bytes);

        expectRebuiltWithOneLine("checksum mismatch");
    }

    @Test
    void aTruncatedSnapshotIsIgnored() throws IOException {
        byte[] bytes = Files.readAllBytes(snapshot());
        Files.write(snapshot(), java.util.Arrays.copyOf(bytes, bytes.length / 3));

        expectRebuiltWithOneLine("is damaged");
    }

    @Test
    void anEmptyOrForeignFileIsIgnored() throws IOException {
        Files.writeString(snapshot(), "not a snapshot at all, but long enough to hold a checksum");

        expectRebuiltWithOneLine("is damaged");
    }

    @Test
    void aSnapshotOfAnotherVersionIsIgnored() throws IOException {
        byte[] bytes = Files.readAllBytes(snapshot());
        ByteBuffer.wrap(bytes).putInt(8, GraphSnapshotFile.VERSION + 1); // after the magic
        Files.write(snapshot(), withChecksum(bytes));

        expectRebuiltWithOneLine("has version 2");
    }

    @Test
    void aSnapshotOfAnotherDatabaseIsIgnored() throws IOException {
        try (Store other = Store.embedded(dir.resolve("other"))) {
            assertThat(other.instanceId()).isNotEqualTo(store.instanceId());
            GraphSnapshotFile.at(snapshot())
                    .save(graph.graph(), Set.of(), other.instanceId(), store.lastChangeSeq());
        }

        expectRebuiltWithOneLine("was made from another database");
    }

    @Test
    void aSnapshotOfAnotherBuildIsIgnored() {
        GraphSnapshotFile.at(snapshot())
                .stampedAs("cairn.jar:1:1")
                .save(graph.graph(), Set.of(), store.instanceId(), store.lastChangeSeq());

        expectRebuiltWithOneLine("another build of Cairn");
    }

    @Test
    void aSnapshotAheadOfTheStoreIsIgnored() {
        GraphSnapshotFile.at(snapshot())
                .save(graph.graph(), Set.of(), store.instanceId(), store.lastChangeSeq() + 5);

        expectRebuiltWithOneLine("ahead of the store's last change");
    }

    /** The snapshot's records at INFO and above, as their formatted messages. */
    static final class Logs extends Handler {
        final List<String> messages = new CopyOnWriteArrayList<>();

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= java.util.logging.Level.INFO.intValue()) {
                messages.add(new java.util.logging.SimpleFormatter().formatMessage(record));
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    private static byte[] withChecksum(byte[] bytes) {
        int body = bytes.length - Long.BYTES;
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, body);
        ByteBuffer.wrap(bytes).putLong(body, crc.getValue());
        return bytes;
    }
}
