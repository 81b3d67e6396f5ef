package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.server.CairnServer;
import dev.cairn.server.ServerSettings;
import dev.cairn.server.auth.ApiToken;
import dev.cairn.server.auth.Role;
import dev.cairn.server.auth.TokensFileImport;
import dev.cairn.server.http.Json;
import dev.cairn.store.PostgresTestDatabase;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn migrate}: every namespace of an embedded data dir into PostgreSQL with counts equal
 * at the end and the same recall and retrieve answers there, and its API tokens (those in the store
 * and a {@code tokens.json} beside it) working there; run again, it finds everything there and
 * writes nothing; bad arguments are one line and exit 2.
 */
class MigrateCommandTest {

    static final String TOKEN = "migrate-admin-token-0123456789";

    static final Map<String, List<String>> FACTS =
            Map.of(
                    "garden",
                    List.of(
                            "Tomatoes are watered at dusk in July.",
                            "The compost is turned every second Sunday.",
                            "Slugs are kept off the lettuce with copper tape."),
                    "shed",
                    List.of(
                            "The lawnmower's spark plug was replaced in April.",
                            "Garden shears hang on the left wall of the shed."));

    static final List<String> QUERIES =
            List.of("when are tomatoes watered", "slugs lettuce", "where are the shears");

    @TempDir Path dir;

    final AdminHttp admin = new AdminHttp(TOKEN);

    /** Each query's recalled memory ids and retrieved chunk ids, in each namespace. */
    Map<String, List<String>> answers(int port) throws Exception {
        Map<String, List<String>> answers = new LinkedHashMap<>();
        for (String ns : List.of("garden", "shed")) {
            for (String q : QUERIES) {
                List<String> ids = new ArrayList<>();
                admin.call(
                                port,
                                "POST",
                                "/v1/namespaces/" + ns + "/recall",
                                "{\"query\":\"" + q + "\",\"scope\":\"namespace\"}")
                        .path("memories")
                        .forEach(m -> ids.add(m.path("memory").path("id").asText()));
                admin.call(
                                port,
                                "POST",
                                "/v1/namespaces/" + ns + "/retrieve",
                                "{\"query\":\"" + q + "\"}")
                        .path("hits")
                        .forEach(h -> ids.add(h.path("chunkId").asText()));
                answers.put(ns + ": " + q, ids);
            }
        }
        return answers;
    }

    @Test
    void everyNamespaceArrivesWithEqualCountsAndTheSameAnswersAndASecondRunWritesNothing()
            throws Exception {
        Path data = dir.resolve("data");
        Map<String, List<String>> before;
        String madeToken;
        try (CairnServer server =
                CairnServer.start(
                        ServerSettings.defaults(data).withPort(0).withAdminToken(TOKEN))) {
            int port = server.port();
            for (var ns : FACTS.entrySet()) {
                admin.call(
                        port,
                        "POST",
                        "/v1/namespaces",
                        "{\"name\":\"" + ns.getKey() + "\",\"description\":\"by hand\"}");
                for (String fact : ns.getValue()) {
                    admin.call(
                            port,
                            "POST",
                            "/v1/namespaces/" + ns.getKey() + "/memories",
                            "{\"type\":\"fact\",\"content\":\"" + fact + "\",\"userId\":\"ines\"}");
                }
                admin.call(
                        port,
                        "POST",
                        "/v1/namespaces/" + ns.getKey() + "/documents",
                        "{\"id\":\"care\",\"content\":\"# Care\\n\\n"
                                + String.join(" ", ns.getValue())
                                + "\"}");
            }
            before = answers(port);
            madeToken =
                    admin.call(
                                    port,
                                    "POST",
                                    "/v1/tokens",
                                    "{\"name\":\"gardener\",\"roles\":[\"read\"],"
                                            + "\"namespaces\":[\"garden\"]}")
                            .path("token")
                            .asText();
        }
        // a tokens.json an earlier version kept beside the store, not yet moved into it
        String fileToken = ApiToken.newSecret();
        Files.write(
                data.resolve(TokensFileImport.FILE),
                Json.bytes(
                        List.of(
                                new ApiToken(
                                        "shed-keeper",
                                        ApiToken.hash(fileToken),
                                        Set.of(Role.WRITE),
                                        List.of("shed"),
                                        Instant.parse("2026-01-01T00:00:00Z")))));
        try (var db = PostgresTestDatabase.create()) {
            var first =
                    IngestFixtures.run("migrate", "--from", data.toString(), "--to", db.jdbcUrl());
            assertThat(first.exit()).as(first.err()).isZero();
            assertThat(first.out())
                    .contains("migrated 2 namespaces (0 already there) and 2 api tokens")
                    .contains("5 memories")
                    .contains("2 documents")
                    .contains("counts equal in both stores");

            var again =
                    IngestFixtures.run("migrate", "--from", data.toString(), "--to", db.jdbcUrl());
            assertThat(again.exit()).as(again.err()).isZero();
            assertThat(again.out())
                    .contains("migrated 2 namespaces (2 already there) and 2 api tokens")
                    .contains("counts equal in both stores");
            assertThat(data.resolve(TokensFileImport.FILE)).exists(); // the source is only read

            try (CairnServer server =
                    CairnServer.start(
                            ServerSettings.defaults(dir.resolve("pg-server"))
                                    .withPort(0)
                                    .withAdminToken(TOKEN)
                                    .withDbUrl(db.jdbcUrl()))) {
                assertThat(answers(server.port())).isEqualTo(before);
                assertThat(
                                admin.call(server.port(), "GET", "/v1/namespaces/garden", null)
                                        .path("description")
                                        .asText())
                        .isEqualTo("by hand");
                // both tokens arrived: each reads what it may, and only that
                HttpResponse<String> gardener =
                        admin.send(
                                server.port(),
                                "GET",
                                "/v1/namespaces/garden/memories",
                                null,
                                madeToken);
                assertThat(gardener.statusCode()).as(gardener.body()).isEqualTo(200);
                assertThat(
                                admin.send(
                                                server.port(),
                                                "GET",
                                                "/v1/namespaces/shed/memories",
                                                null,
                                                madeToken)
                                        .statusCode())
                        .isEqualTo(403);
                HttpResponse<String> keeper =
                        admin.send(
                                server.port(),
                                "GET",
                                "/v1/namespaces/shed/memories",
                                null,
                                fileToken);
                assertThat(keeper.statusCode()).as(keeper.body()).isEqualTo(200);
            }
        }
    }

    @Test
    void aMissingStoreOrANonPostgresTargetIsOneLineAndExitTwo() throws IOException {
        var noStore =
                IngestFixtures.run(
                        "migrate",
                        "--from",
                        dir.resolve("empty").toString(),
                        "--to",
                        "jdbc:postgresql://127.0.0.1:5432/x");
        assertThat(noStore.exit()).isEqualTo(2);
        assertThat(noStore.err().strip())
                .contains("no embedded Cairn store in")
                .doesNotContain("\n");

        java.nio.file.Files.writeString(dir.resolve(LocalOptions.EMBEDDED_DB_FILE), "");
        var notPostgres =
                IngestFixtures.run(
                        "migrate", "--from", dir.toString(), "--to", "jdbc:sqlite:/tmp/x.db");
        assertThat(notPostgres.exit()).isEqualTo(2);
        assertThat(notPostgres.err()).contains("--to must be a PostgreSQL JDBC URL");
    }
}
