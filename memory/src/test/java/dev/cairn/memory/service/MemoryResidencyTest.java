package dev.cairn.memory.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.memory.MemoryLifecycle;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;
import dev.cairn.memory.ScoredMemory;
import dev.cairn.memory.TrigramEmbeddingModel;
import dev.cairn.retrieval.lexical.LexicalConfig;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.safety.WriteGuard;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bounded residency: the memory tables in memory stay within their byte bound by dropping the least
 * recently used namespaces' tables, which load again from the store when next used, and nothing
 * about the answers changes (the same memories with the same scores, a write made while a namespace
 * was out of memory included).
 */
class MemoryResidencyTest {

    static final int DIMS = 256;
    static final List<String> NAMESPACES = List.of("alpha", "beta", "gamma");

    @TempDir Path temp;
    Store store;
    MemoryService service;
    final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T09:00:00Z"));

    @BeforeEach
    void fill() {
        store = Store.embedded(temp.resolve("data"), StoreConfig.defaults().withDimensions(DIMS));
        try (MemoryService writer = open(0)) {
            for (String ns : NAMESPACES) {
                store.createNamespace(ns, "");
                for (int i = 0; i < 30; i++) {
                    writer.write(
                            NewMemory.of(
                                    Scope.of(ns, "user-" + (i % 3), ""),
                                    MemoryType.FACT,
                                    ns
                                            + " note "
                                            + i
                                            + ": the "
                                            + List.of("boiler", "garden", "router", "bicycle")
                                                    .get(i % 4)
                                            + " needs attention on day "
                                            + i),
                            "test");
                }
            }
        }
    }

    @AfterEach
    void close() {
        if (service != null) {
            service.close();
        }
        store.close();
    }

    MemoryService open(long residentBytes) {
        return open(residentBytes, MemoryServiceConfig.defaults().lifecycle().mergeSimilarity());
    }

    MemoryService open(long residentBytes, double mergeSimilarity) {
        return MemoryService.create(
                store,
                new TrigramEmbeddingModel(DIMS),
                LexicalIndex.inMemory(LexicalConfig.DEFAULTS),
                WriteGuard.standard(),
                MemoryServiceConfig.defaults()
                        .withLifecycle(new MemoryLifecycle.Config(mergeSimilarity))
                        .withRecall(MemoryServiceConfig.Recall.defaults().withRecordRecalls(false))
                        .withMaintenance(
                                MemoryServiceConfig.Maintenance.defaults()
                                        .withInterval(Duration.ZERO))
                        .withResidentBytes(residentBytes),
                clock);
    }

    List<String> recall(String ns) {
        return service
                .recall(RecallRequest.of(ns, "what needs attention in the garden"))
                .memories()
                .stream()
                .map(m -> m.id() + "@" + m.score())
                .toList();
    }

    @Test
    void theLeastRecentlyUsedTablesLeaveAndComeBackWithTheSameAnswers() {
        service = open(0);
        recall("alpha");
        long oneNamespace = service.stats().residentBytes();
        assertThat(oneNamespace).isPositive();
        service.close();

        // room for two namespaces' tables, not three
        service = open(oneNamespace * 5 / 2);
        List<String> alpha = recall("alpha");
        List<String> beta = recall("beta");
        assertThat(service.stats().residentNamespaces()).isEqualTo(2);
        assertThat(service.stats().evictions()).isZero();

        List<String> gamma = recall("gamma");
        assertThat(service.stats().residentNamespaces()).isEqualTo(2);
        assertThat(service.stats().evictions()).isEqualTo(1); // alpha, the least recently used
        assertThat(service.stats().residentBytes()).isLessThanOrEqualTo(oneNamespace * 5 / 2);

        assertThat(recall("alpha")).isEqualTo(alpha); // loaded again; beta leaves
        assertThat(service.stats().tableLoads()).isEqualTo(4);
        assertThat(service.stats().evictions()).isEqualTo(2);
        assertThat(recall("gamma")).isEqualTo(gamma); // still in memory
        assertThat(service.stats().tableLoads()).isEqualTo(4);

        // a write to beta while its table is out of memory is there when it loads again
        String id =
                service.write(
                                NewMemory.of(
                                        Scope.of("beta", "user-9", ""),
                                        MemoryType.FACT,
                                        "the garden gate needs attention urgently"),
                                "test")
                        .memory()
                        .id();
        List<String> betaAgain = recall("beta");
        assertThat(betaAgain.stream().map(s -> s.substring(0, s.indexOf('@')))).contains(id);
        assertThat(betaAgain).hasSameSizeAs(beta);
    }

    @Test
    void withNoBoundEveryTableStays() {
        service = open(0);
        NAMESPACES.forEach(this::recall);
        assertThat(service.stats().residentNamespaces()).isEqualTo(3);
        assertThat(service.stats().evictions()).isZero();
        assertThat(service.stats().tableLoads()).isEqualTo(3);
    }

    @Test
    void aScoredMemoryIsTheSameWhetherItsTableWasEvictedOrNot() {
        service = open(0);
        List<ScoredMemory> kept =
                service.recall(RecallRequest.of("beta", "router attention")).memories();
        service.close();
        service = open(1); // every other table leaves as soon as one loads
        recall("alpha");
        recall("gamma");
        List<ScoredMemory> reloaded =
                service.recall(RecallRequest.of("beta", "router attention")).memories();
        assertThat(reloaded).isEqualTo(kept);
        assertThat(service.stats().residentNamespaces()).isEqualTo(1);
    }

    @Test
    void maintenanceReportsDuplicatesWithoutLoadingTheTablesNoRequestLoaded() {
        List<String> pair;
        try (MemoryService unmerged = open(0, 1.0)) { // only identical vectors would merge
            pair =
                    List.of(
                                    "the boiler in flat four needs a new pressure valve",
                                    "the boiler in flat four needs a new pressure valve soon")
                            .stream()
                            .map(
                                    text ->
                                            unmerged.write(
                                                            NewMemory.of(
                                                                    Scope.of("beta", "user-7", ""),
                                                                    MemoryType.FACT,
                                                                    text),
                                                            "test")
                                                    .memory()
                                                    .id())
                            .sorted()
                            .toList();
        }
        service = open(0);
        MaintenanceReport fromTheStore = service.maintain();
        assertThat(fromTheStore.duplicateClusters()).containsExactly(pair);
        // a server behind a namespace-routing balancer keeps only the tables its requests load
        assertThat(service.stats().residentNamespaces()).isZero();
        assertThat(service.stats().tableLoads()).isZero();

        recall("beta");
        assertThat(service.maintain().duplicateClusters())
                .isEqualTo(fromTheStore.duplicateClusters());
        assertThat(service.stats().residentNamespaces()).isEqualTo(1);
        assertThat(service.stats().tableLoads()).isEqualTo(1);
    }
}
