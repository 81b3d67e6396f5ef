package dev.cairn.memory.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.memory.Memory;
import dev.cairn.memory.MemoryLifecycle;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;
import dev.cairn.retrieval.store.ChunkDraft;
import dev.cairn.retrieval.store.DocumentDraft;
import dev.cairn.retrieval.store.DocumentFormat;
import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.StoredChunk;
import dev.cairn.store.PostgresTestDatabase;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stores written before issue 43 hold the vectors of int8 and bfloat16 document passes under {@code
 * <model>-int8} and {@code <model>-bf16}. V017 (chunks) and V018 (memories) rename them to the
 * model's id and leave the vectors as they were, so no server embeds them again; every other id
 * (another model's, a user's model whose name happens to end the same way) stays as it was. On both
 * stores: the data is written, the store set back to before the two migrations and opened again, as
 * an upgrade opens it.
 */
class ModelIdMigrationTest {

    private static final int DIMS = 4;
    private static final String NS = "ops";
    private static final Instant T0 = Instant.parse("2026-11-20T08:00:00Z");

    @TempDir Path dir;

    @Test
    void embedded() {
        renamesFormerIdsAndKeepsTheVectors(
                () -> Store.embedded(dir, StoreConfig.defaults().withDimensions(DIMS)));
    }

    @Test
    void postgres() {
        PostgresTestDatabase.assumeAvailable();
        try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
            renamesFormerIdsAndKeepsTheVectors(
                    () ->
                            Store.postgres(
                                    database.jdbcUrl(),
                                    StoreConfig.defaults().withDimensions(DIMS)));
        }
    }

    /** Each stored id and the id it has after the upgrade. */
    private static Map<String, String> idsBeforeAndAfter() {
        Map<String, String> ids = new LinkedHashMap<>();
        for (String model : List.of("bge-small-en-v1.5", "all-MiniLM-L6-v2")) {
            ids.put(model, model);
            EmbeddingModels.formerIds(model).forEach(former -> ids.put(former, model));
        }
        ids.put("my-model-int8", "my-model-int8");
        return ids;
    }

    private void renamesFormerIdsAndKeepsTheVectors(Supplier<Store> open) {
        Map<String, String> ids = idsBeforeAndAfter();
        assertThat(ids).hasSize(7);
        List<String> stored = List.copyOf(ids.keySet());
        MemoryLifecycle lifecycle = MemoryLifecycle.defaults();
        try (Store store = open.get()) {
            store.createNamespace(NS, "");
            MemoryRepository repo = MemoryRepository.over(store);
            List<MemoryRow> rows = new ArrayList<>();
            List<ChunkDraft> chunks = new ArrayList<>();
            for (int i = 0; i < stored.size(); i++) {
                Memory m =
                        lifecycle.create(
                                "mem_" + i,
                                NewMemory.of(Scope.of(NS), MemoryType.FACT, "fact " + i),
                                stored.get(i),
                                T0);
                rows.add(new MemoryRow(m, vector(i)));
                chunks.add(
                        ChunkDraft.unembedded(i, List.of(), "chunk " + i, 2)
                                .withEmbedding(vector(i), stored.get(i)));
            }
            repo.write(NS, rows, List.of());
            DocumentRepository.over(store)
                    .replaceDocument(
                            NS,
                            DocumentDraft.of("runbook", "Runbook", DocumentFormat.TEXT, "x"),
                            chunks);
            store.sql()
                    .write(
                            NS,
                            c -> {
                                try (Statement s = c.createStatement()) {
                                    s.execute(
                                            "DELETE FROM schema_migrations WHERE version IN (17,"
                                                    + " 18)");
                                }
                                return null;
                            });
        }

        try (Store store = open.get()) {
            MemoryRepository repo = MemoryRepository.over(store);
            List<StoredChunk> chunks = DocumentRepository.over(store).chunks(NS, "runbook");
            assertThat(chunks).hasSize(stored.size());
            for (int i = 0; i < stored.size(); i++) {
                String after = ids.get(stored.get(i));
                assertThat(repo.find(NS, "mem_" + i).orElseThrow().embeddingModel())
                        .as("memory stored under %s", stored.get(i))
                        .isEqualTo(after);
                assertThat(repo.embedding(NS, "mem_" + i)).containsExactly(vector(i));
                StoredChunk chunk = chunks.get(i);
                assertThat(chunk.ordinal()).isEqualTo(i);
                assertThat(chunk.embeddingModel())
                        .as("chunk stored under %s", stored.get(i))
                        .isEqualTo(after);
                assertThat(chunk.embedding()).containsExactly(vector(i));
            }
            // what the maintenance repair of a bge server embeds again: only another model's
            assertThat(repo.needingEmbedding(NS, "bge-small-en-v1.5", 100))
                    .extracting(Memory::embeddingModel)
                    .containsExactlyInAnyOrder(
                            "all-MiniLM-L6-v2",
                            "all-MiniLM-L6-v2",
                            "all-MiniLM-L6-v2",
                            "my-model-int8");
        }
    }

    /** A distinct unit vector per row, with bits a rewrite of the row would not keep by chance. */
    private static float[] vector(int i) {
        float[] v = {0.1f + i / 7f, 0.3f - i / 11f, 0.7f, 1f / (i + 3)};
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        for (int k = 0; k < v.length; k++) {
            v[k] = (float) (v[k] / Math.sqrt(norm));
        }
        return v;
    }
}
