package dev.cairn.retrieval.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.store.PostgresTestDatabase;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 46 moved the documents and chunks tables from the store's V001 to retrieval's V010 (which
 * until then only added {@code ingest_key}). Databases made before open unchanged: one that applied
 * both former texts (their checksums are named in the new files), and one from before V010 existed,
 * which gains {@code ingest_key} as it did then. On both stores: the database is written, set back
 * to what an older version left, and opened again, as an upgrade opens it.
 */
class DocumentsMigrationTest {

    private static final int DIMS = 4;
    private static final String NS = "ops";

    /** SHA-256 of the former V001__foundation.sql and V010__ingest_key.sql (as of e0dc432). */
    private static final Map<Store.Kind, List<String>> FORMER_CHECKSUMS =
            Map.of(
                    Store.Kind.EMBEDDED,
                    List.of(
                            "0161a1894c68b00c4ab0df0b95951e52a49bde14cd46468e265650edab018f65",
                            "7cd6e4c5d4b62726446bb85c15d694cb0c5de89d13c4c03cfbae078db803f0f0"),
                    Store.Kind.POSTGRES,
                    List.of(
                            "35c5c0e20e13d7be1180f96c45414239b09d6ad4a59cffbbafbeb540595b3cda",
                            "6740224801a7526403dade8372d66b4e102e180f6fe7af6bea97d494ed51966a"));

    @TempDir Path dir;

    @Test
    void embedded() {
        upgrades(() -> Store.embedded(dir, StoreConfig.defaults().withDimensions(DIMS)));
    }

    @Test
    void postgres() {
        PostgresTestDatabase.assumeAvailable();
        try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
            upgrades(
                    () ->
                            Store.postgres(
                                    database.jdbcUrl(),
                                    StoreConfig.defaults().withDimensions(DIMS)));
        }
    }

    private void upgrades(Supplier<Store> open) {
        List<String> former;
        int migrations;
        try (Store store = open.get()) {
            former = FORMER_CHECKSUMS.get(store.kind());
            store.createNamespace(NS, "");
            DocumentRepository.over(store)
                    .replaceDocument(
                            NS,
                            DocumentDraft.of("runbook", "Runbook", DocumentFormat.TEXT, "x"),
                            List.of(new ChunkDraft(0, List.of(), "chunk", 1, vector(), "m")));
            migrations = migrationCount(store);
            // what a database that applied the former texts of V001 and V010 records
            execute(
                    store,
                    "UPDATE schema_migrations SET checksum = '"
                            + former.get(0)
                            + "' WHERE version = 1",
                    "UPDATE schema_migrations SET checksum = '"
                            + former.get(1)
                            + "' WHERE version = 10");
        }

        try (Store store = open.get()) {
            assertThat(migrationCount(store)).as("nothing applied again").isEqualTo(migrations);
            assertThat(DocumentRepository.over(store).chunks(NS, "runbook"))
                    .singleElement()
                    .satisfies(c -> assertThat(c.embedding()).containsExactly(vector()));
            // a database from before V010: the former V001 made both tables, ingest_key is missing
            execute(
                    store,
                    "ALTER TABLE documents DROP COLUMN ingest_key",
                    "DELETE FROM schema_migrations WHERE version = 10");
        }

        try (Store store = open.get()) {
            DocumentRepository documents = DocumentRepository.over(store);
            assertThat(migrationCount(store)).isEqualTo(migrations);
            assertThat(documents.document(NS, "runbook")).map(StoredDocument::version).contains(1L);
            documents.replaceDocuments(
                    NS,
                    List.of(
                            new DocumentWrite(
                                    DocumentDraft.of("keyed", "Keyed", DocumentFormat.TEXT, "y"),
                                    List.of(),
                                    "key-1")),
                    DocumentRepository.AlongsideWrite.NONE);
            assertThat(documents.ingestedDocuments(NS, List.of("runbook", "keyed")))
                    .containsOnly(Map.entry("keyed", new IngestedDocument("keyed", 1, "key-1", 0)));
            // the checks are live: a text neither current nor named as former fails the open
            execute(
                    store,
                    "UPDATE schema_migrations SET checksum = '"
                            + "0".repeat(64)
                            + "' WHERE version = 10");
        }
        assertThatThrownBy(open::get)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("V10__documents");
    }

    private static void execute(Store store, String... statements) {
        store.sql()
                .write(
                        NS,
                        c -> {
                            try (Statement s = c.createStatement()) {
                                for (String statement : statements) {
                                    s.execute(statement);
                                }
                            }
                            return null;
                        });
    }

    private static int migrationCount(Store store) {
        return store.sql()
                .read(
                        c -> {
                            try (PreparedStatement ps =
                                            c.prepareStatement(
                                                    "SELECT count(*) FROM schema_migrations");
                                    ResultSet rs = ps.executeQuery()) {
                                rs.next();
                                return rs.getInt(1);
                            }
                        });
    }

    private static float[] vector() {
        return new float[] {0.5f, -0.25f, 0.125f, 1f};
    }
}
