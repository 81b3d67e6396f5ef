package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.store.PostgresTestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL backup procedure of docs/operations.md, end to end: {@code pg_dump
 * --format=custom} of a served database, {@code pg_restore} into a new database, and servers on the
 * restored one answer as the original did: one with a fresh data dir, and one with a data dir whose
 * indexes had seen writes made after the dump (they are ahead of the restored store, so it rebuilds
 * them rather than skip the changes that reuse their sequence numbers).
 */
class PostgresDumpRestoreTest {

    static final String A = CairnCalls.ADMIN;
    static final String NS = "/v1/namespaces/boiler";
    static final List<String> FACTS =
            List.of(
                    "The boiler is serviced every October by the same engineer.",
                    "Pressure below one bar means the system needs topping up.",
                    "The thermostat in the hall runs the downstairs radiators.",
                    "Bleed the bedroom radiators when they are cold at the top.");
    static final List<String> QUERIES =
            List.of("when is the boiler serviced", "low pressure", "cold radiators");

    @TempDir Path dir;

    Map<String, List<String>> answers(ServerFixture server) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String q : QUERIES) {
            List<String> ids = new ArrayList<>();
            var recalled =
                    server.call(
                            "POST",
                            NS + "/recall",
                            A,
                            "{\"query\":\"" + q + "\",\"scope\":\"namespace\"}");
            assertThat(recalled.status()).as(recalled.body()).isEqualTo(200);
            recalled.json().path("memories").forEach(m -> ids.add(m.at("/memory/id").asText()));
            var retrieved = server.call("POST", NS + "/retrieve", A, "{\"query\":\"" + q + "\"}");
            assertThat(retrieved.status()).as(retrieved.body()).isEqualTo(200);
            retrieved.json().path("hits").forEach(h -> ids.add(h.path("chunkId").asText()));
            out.put(q, ids);
        }
        return out;
    }

    static void remember(ServerFixture server, String fact) {
        var created =
                server.call(
                        "POST",
                        NS + "/memories",
                        A,
                        "{\"type\":\"fact\",\"content\":\"" + fact + "\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    @Test
    void aDumpRestoredIntoANewDatabaseAnswersAsTheOriginalDid() throws Exception {
        String restoredDb = "cairn_restore_" + UUID.randomUUID().toString().substring(0, 8);
        try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
            Path served = dir.resolve("served");
            Map<String, List<String>> before;
            Path dump = dir.resolve("cairn.dump");
            try (ServerFixture server = fixture(served, database.jdbcUrl())) {
                assertThat(
                                server.call(
                                                "POST",
                                                "/v1/namespaces",
                                                A,
                                                "{\"name\":\"boiler\",\"recallScope\":\"namespace\"}")
                                        .status())
                        .isEqualTo(201);
                FACTS.forEach(f -> remember(server, f));
                var doc =
                        server.call(
                                "POST",
                                NS + "/documents",
                                A,
                                "{\"id\":\"care\",\"content\":\"# Boiler care\\n\\n"
                                        + String.join(" ", FACTS)
                                        + "\"}");
                assertThat(doc.status()).as(doc.body()).isEqualTo(201);
                before = answers(server);

                PostgresTools.dump(database, "custom", dump);

                // written after the dump: the served data dir's indexes hold them
                remember(server, "The boiler pressure was low again and was topped up.");
                remember(server, "A new cold radiator valve was fitted in the bedroom.");
            }
            assertThat(Files.size(dump)).isPositive();

            String admin = database.jdbcUrl();
            try (Connection c = DriverManager.getConnection(admin);
                    Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + restoredDb);
            }
            String restoredUrl = PostgresTools.withDatabase(database.jdbcUrl(), restoredDb);
            try {
                try (Connection c = DriverManager.getConnection(restoredUrl);
                        Statement s = c.createStatement()) {
                    s.execute("CREATE EXTENSION IF NOT EXISTS vector");
                }
                PostgresTools.run(
                        "pg_restore",
                        "--no-owner",
                        "--dbname=" + PostgresTools.libpqUri(restoredUrl),
                        dump.toString());

                try (ServerFixture fresh = fixture(dir.resolve("fresh"), restoredUrl)) {
                    assertThat(answers(fresh)).isEqualTo(before);
                }
                try (ServerFixture again = fixture(served, restoredUrl)) {
                    assertThat(answers(again)).isEqualTo(before);
                    // and it follows the restored store's new writes
                    remember(again, "The hall thermostat battery was replaced.");
                    var recalled =
                            again.call(
                                    "POST",
                                    NS + "/recall",
                                    A,
                                    "{\"query\":\"thermostat battery\",\"scope\":\"namespace\"}");
                    assertThat(recalled.json().at("/memories/0/memory/content").asText())
                            .contains("battery");
                }
            } finally {
                try (Connection c = DriverManager.getConnection(admin);
                        Statement s = c.createStatement()) {
                    s.execute("DROP DATABASE IF EXISTS " + restoredDb + " WITH (FORCE)");
                }
            }
        }
    }

    static ServerFixture fixture(Path dataDir, String dbUrl) {
        return new ServerFixture(
                ServerSettings.defaults(dataDir).withPort(0).withAdminToken(A).withDbUrl(dbUrl));
    }
}
