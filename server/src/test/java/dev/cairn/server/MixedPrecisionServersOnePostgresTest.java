package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.store.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 43's model-id test: two servers on one PostgreSQL, one with reduced precision off (float32
 * throughout) and one with this CPU's default (bfloat16 or int8 where the CPU has them), write
 * memories and a document through each; a maintenance round on each embeds nothing again, and the
 * document ingested by one is unchanged for the other. Both name one model id in {@code GET
 * /health} and on every memory, and each names the precision it computes in.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MixedPrecisionServersOnePostgresTest {

    static final String A = CairnCalls.ADMIN;
    static final String NS = "mixed";
    static final String MODEL_ID = "bge-small-en-v1.5";

    /** The switches of every reduced-precision path (docs/embeddings.md). */
    static final List<String> REDUCED_PRECISION_OFF =
            List.of(
                    "cairn.embeddings.bf16",
                    "cairn.embeddings.int8",
                    "cairn.embeddings.half-weights");

    @TempDir static Path dataDirs;
    PostgresTestDatabase database;
    ServerFixture float32;
    ServerFixture reduced;

    @BeforeAll
    void start() {
        if (!PostgresTestDatabase.available()) {
            return; // each test skips (or fails) on its own, so it is counted
        }
        database = PostgresTestDatabase.create();
        // The switches are read when a model loads, which a server's start waits for.
        Map<String, String> before = new HashMap<>();
        REDUCED_PRECISION_OFF.forEach(p -> before.put(p, System.getProperty(p)));
        try {
            REDUCED_PRECISION_OFF.forEach(p -> System.setProperty(p, "false"));
            float32 = new ServerFixture(settings(dataDirs.resolve("float32")));
        } finally {
            before.forEach(
                    (p, v) -> {
                        if (v == null) {
                            System.clearProperty(p);
                        } else {
                            System.setProperty(p, v);
                        }
                    });
        }
        reduced = new ServerFixture(settings(dataDirs.resolve("reduced")));
        assertThat(
                        float32.call(
                                        "POST",
                                        "/v1/namespaces",
                                        A,
                                        "{\"name\":\"" + NS + "\",\"recallScope\":\"namespace\"}")
                                .status())
                .isEqualTo(201);
    }

    @BeforeEach
    void requireDatabase() {
        PostgresTestDatabase.assumeAvailable();
    }

    private ServerSettings settings(Path dir) {
        return ServerSettings.defaults(dir)
                .withPort(0)
                .withAdminToken(A)
                .withDbUrl(database.jdbcUrl());
    }

    @AfterAll
    void stop() {
        try {
            if (reduced != null) {
                reduced.close();
            }
            if (float32 != null) {
                float32.close();
            }
        } finally {
            if (database != null) {
                database.close();
            }
        }
    }

    @Test
    void bothNameOneModelIdAndEachItsOwnPrecision() {
        JsonNode off = float32.call("GET", "/health", null, null).json().path("model");
        JsonNode on = reduced.call("GET", "/health", null, null).json().path("model");
        assertThat(off.path("id").asText()).isEqualTo(MODEL_ID);
        assertThat(on.path("id").asText()).isEqualTo(MODEL_ID);
        assertThat(off.path("precision").asText()).isEqualTo("documents float32, queries float32");
        assertThat(on.path("precision").asText()).startsWith("documents ");
    }

    @Test
    void aMaintenanceRoundOnEitherServerEmbedsNothingTheOtherWrote() throws SQLException {
        assumeFalse(
                precision(reduced).equals(precision(float32)),
                "this CPU offers no reduced precision: both servers compute in float32");
        List<String> ids = new ArrayList<>();
        for (ServerFixture server : List.of(float32, reduced)) {
            for (String content :
                    List.of(
                            "The billing service retries a failed charge three times",
                            "Invoices are archived to cold storage after ninety days")) {
                var written =
                        server.call(
                                "POST",
                                "/v1/namespaces/" + NS + "/memories",
                                A,
                                "{\"type\":\"FACT\",\"content\":\""
                                        + content
                                        + " ("
                                        + precision(server)
                                        + ")\"}");
                assertThat(written.status()).as(written.body()).isEqualTo(201);
                ids.add(written.json().path("id").asText());
            }
        }

        assertThat(float32.server.memory().maintain().reembedded()).isZero();
        assertThat(reduced.server.memory().maintain().reembedded()).isZero();
        assertThat(float32.server.memory().maintain().reembedded()).isZero();
        assertThat(reembeddedTotal(float32) + reembeddedTotal(reduced))
                .as("scheduled rounds included")
                .isZero();
        for (ServerFixture server : List.of(float32, reduced)) {
            for (String id : ids) {
                assertThat(
                                server.call(
                                                "GET",
                                                "/v1/namespaces/" + NS + "/memories/" + id,
                                                A,
                                                null)
                                        .json()
                                        .path("embeddingModel")
                                        .asText())
                        .isEqualTo(MODEL_ID);
            }
        }

        // The zero is the repair finding nothing, not a repair that never looks: a memory of
        // another model is embedded again, once, by whichever server gets to it first.
        try (Connection c = DriverManager.getConnection(database.jdbcUrl());
                PreparedStatement ps =
                        c.prepareStatement(
                                "UPDATE memories SET embedding_model = 'all-MiniLM-L6-v2'"
                                        + " WHERE namespace = ? AND id = ?")) {
            ps.setString(1, NS);
            ps.setString(2, ids.getFirst());
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        int first = reduced.server.memory().maintain().reembedded();
        int second = float32.server.memory().maintain().reembedded();
        assertThat(first + second).isEqualTo(1);
        assertThat(reembeddedTotal(float32) + reembeddedTotal(reduced)).isEqualTo(1);
    }

    @Test
    void aDocumentIngestedByOneServerIsUnchangedForTheOther() {
        String document =
                "{\"id\":\"charge-retries\",\"title\":\"Charge retries\",\"format\":\"markdown\","
                        + "\"content\":\"# Retries\\n\\nA failed charge is retried three times,"
                        + " an hour apart.\"}";
        var ingested =
                reduced.call(
                        "POST",
                        "/v1/namespaces/" + NS + "/documents?skipUnchanged=true",
                        A,
                        document);
        assertThat(ingested.status()).as(ingested.body()).isEqualTo(201);

        var again =
                float32.call(
                        "POST",
                        "/v1/namespaces/" + NS + "/documents?skipUnchanged=true",
                        A,
                        document);

        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().path("unchanged").asBoolean()).isTrue();
        assertThat(again.json().path("version").asLong()).isEqualTo(1);
    }

    private static String precision(ServerFixture server) {
        return server.call("GET", "/health", null, null).json().at("/model/precision").asText();
    }

    private static final Pattern REEMBEDDED =
            Pattern.compile("(?m)^cairn_memory_maintenance_reembedded_total(?:\\{[^}]*})? (\\S+)$");

    /** The server's {@code cairn_memory_maintenance_reembedded_total}: every round it ran. */
    private static long reembeddedTotal(ServerFixture server) {
        Matcher m = REEMBEDDED.matcher(server.call("GET", "/metrics", null, null).body());
        assertThat(m.find()).as("the re-embedded counter is exported").isTrue();
        return (long) Double.parseDouble(m.group(1));
    }
}
