package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.server.auth.ApiToken;
import dev.cairn.server.auth.Role;
import dev.cairn.server.auth.TokenRegistry;
import dev.cairn.server.auth.TokensFileImport;
import dev.cairn.server.http.Json;
import dev.cairn.store.PostgresTestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.text.MessageFormat;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two servers share one PostgreSQL, each with its own data dir (its own Lucene indexes and
 * in-memory tables): every kind of write on one is found through the other's read paths within 2 s,
 * and deletions disappear the same way. What makes it work is the store's change log, which every
 * derived index follows.
 *
 * <p>The writer computes in this CPU's default precision (bfloat16 or int8 where the CPU has them)
 * and the reader with every reduced precision off (float32), as servers on different CPUs would:
 * issue 43's model-id test. Both store one model id, so a maintenance round on either embeds
 * nothing the other wrote, and a document one ingested is unchanged for the other.
 *
 * <p>API tokens (issue 43): one made on either server is accepted by the other on its first use,
 * and once deleted refused by it within {@link TokenRegistry#RECHECK}. The reader starts on a data
 * dir holding a {@code tokens.json} from before tokens were kept in the store: it moves the file's
 * token into the store, where both servers find it, and says so at INFO.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoServersOnePostgresTest {

    /** The bound: a write on one server is visible on every other within this. */
    static final Duration VISIBLE_WITHIN = Duration.ofSeconds(2);

    static final String A = CairnCalls.ADMIN;
    static final String NS = "shared";
    static final String MODEL_ID = "bge-small-en-v1.5";

    /**
     * The switches of every reduced-precision path (docs/embeddings.md), read at a model's load.
     */
    static final List<String> REDUCED_PRECISION =
            List.of(
                    "cairn.embeddings.bf16",
                    "cairn.embeddings.int8",
                    "cairn.embeddings.half-weights");

    /**
     * The secret of the token in the reader's {@code tokens.json} from before tokens were stored.
     */
    static final String FROM_FILE = ApiToken.newSecret();

    @TempDir static Path dataDirs;
    PostgresTestDatabase database;
    ServerFixture writer;
    ServerFixture reader;
    List<LogRecord> readerStartLog;

    @BeforeAll
    void start() throws IOException {
        if (!PostgresTestDatabase.available()) {
            return; // each test skips (or fails) on its own, so it is counted
        }
        database = PostgresTestDatabase.create();
        writer = new ServerFixture(settings(dataDirs.resolve("writer")));
        Path readerDir = Files.createDirectories(dataDirs.resolve("reader"));
        Files.write(
                readerDir.resolve(TokensFileImport.FILE),
                Json.bytes(
                        List.of(
                                new ApiToken(
                                        "nightly-export",
                                        ApiToken.hash(FROM_FILE),
                                        Set.of(Role.READ),
                                        List.of("*"),
                                        Instant.parse("2026-02-03T04:05:06.789Z")))));
        try (LogCapture logs = new LogCapture(TokensFileImport.class.getName())) {
            reader = withoutReducedPrecision(() -> new ServerFixture(settings(readerDir)));
            readerStartLog = List.copyOf(logs.records());
        }
        assertThat(
                        writer.call(
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

    /**
     * What {@code start} makes with every reduced precision off; a server's start loads its model.
     */
    private static <T> T withoutReducedPrecision(Supplier<T> start) {
        Map<String, String> before = new HashMap<>();
        REDUCED_PRECISION.forEach(p -> before.put(p, System.getProperty(p)));
        try {
            REDUCED_PRECISION.forEach(p -> System.setProperty(p, "false"));
            return start.get();
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
    }

    @AfterAll
    void stop() {
        try {
            if (reader != null) {
                reader.close();
            }
            if (writer != null) {
                writer.close();
            }
        } finally {
            database.close();
        }
    }

    @Test
    void documentsAndTheirDeletionReachTheOtherServersRetrieve() {
        var ingested =
                writer.call(
                        "POST",
                        "/v1/namespaces/" + NS + "/documents",
                        A,
                        "{\"id\":\"glacier-restore\",\"title\":\"Restoring archived backups\","
                                + "\"format\":\"markdown\",\"content\":\"# Restore\\n\\nThawing a"
                                + " glacier vault takes twelve hours before the backup can be"
                                + " copied back.\"}");
        assertThat(ingested.status()).isEqualTo(201);

        Supplier<List<String>> retrieved =
                () ->
                        texts(
                                reader.call(
                                                "POST",
                                                "/v1/namespaces/" + NS + "/retrieve",
                                                A,
                                                "{\"query\":\"thawing glacier vault\"}")
                                        .json()
                                        .path("hits"),
                                "documentId");
        assertThat(within(retrieved, hits -> hits.contains("glacier-restore"))).isTrue();

        assertThat(
                        writer.call(
                                        "DELETE",
                                        "/v1/namespaces/" + NS + "/documents/glacier-restore",
                                        A,
                                        null)
                                .status())
                .isEqualTo(204);
        assertThat(within(retrieved, hits -> !hits.contains("glacier-restore"))).isTrue();
    }

    @Test
    void relationsReachTheOtherServersEntityGraph() {
        assertThat(
                        writer.call(
                                        "POST",
                                        "/v1/namespaces/" + NS + "/relations",
                                        A,
                                        "{\"from\":\"billing-api\",\"to\":\"ledger-db\","
                                                + "\"type\":\"depends_on\"}")
                                .status())
                .isEqualTo(201);

        Supplier<List<String>> entities =
                () ->
                        texts(
                                reader.call(
                                                "GET",
                                                "/v1/namespaces/" + NS + "/entities?q=ledger",
                                                A,
                                                null)
                                        .json()
                                        .path("items"),
                                "name");
        assertThat(within(entities, names -> names.contains("ledger-db"))).isTrue();
    }

    @Test
    void memoriesTheirStatusAndDeletionReachTheOtherServersRecall() {
        var written =
                writer.call(
                        "POST",
                        "/v1/namespaces/" + NS + "/memories",
                        A,
                        "{\"type\":\"PREFERENCE\",\"content\":\"Priya wants release notes"
                                + " written in British English\"}");
        assertThat(written.status()).isEqualTo(201);
        String id = written.json().path("id").asText();

        Supplier<List<String>> recalled = () -> recalledIds("release notes spelling for Priya");
        assertThat(within(recalled, ids -> ids.contains(id))).isTrue();

        writer.call("POST", "/v1/namespaces/" + NS + "/memories/" + id + "/disable", A, "{}");
        assertThat(within(recalled, ids -> !ids.contains(id))).isTrue();

        writer.call("POST", "/v1/namespaces/" + NS + "/memories/" + id + "/enable", A, "{}");
        assertThat(within(recalled, ids -> ids.contains(id))).isTrue();

        assertThat(
                        writer.call("DELETE", "/v1/namespaces/" + NS + "/memories/" + id, A, null)
                                .status())
                .isEqualTo(204);
        assertThat(within(recalled, ids -> !ids.contains(id))).isTrue();
    }

    @Test
    void aTokenMadeOnOneServerWorksOnTheOtherAndIsRefusedThereWithinTheBoundOnceDeleted()
            throws Exception {
        var made =
                writer.call(
                        "POST",
                        "/v1/tokens",
                        A,
                        "{\"name\":\"ci\",\"roles\":[\"read\"],\"namespaces\":[\"*\"]}");
        assertThat(made.status()).as(made.body()).isEqualTo(201);
        String secret = made.json().path("token").asText();

        // on its first use, before the reader's next reread
        var self = reader.call("GET", "/v1/token", secret, null);
        assertThat(self.status()).as(self.body()).isEqualTo(200);
        assertThat(self.json().path("name").asText()).isEqualTo("ci");
        assertThat(self.json().path("createdAt").asText())
                .isEqualTo(made.json().path("createdAt").asText());
        // listing reads the store: from here the reader holds the token in memory
        assertThat(tokenNames(reader)).contains("ci");

        // the same name on the other server: the store's key answers the 409
        var again =
                reader.call(
                        "POST",
                        "/v1/tokens",
                        A,
                        "{\"name\":\"ci\",\"roles\":[\"admin\"],\"namespaces\":[\"*\"]}");
        assertThat(again.status()).as(again.body()).isEqualTo(409);
        assertThat(again.contentType()).startsWith("application/problem+json");

        assertThat(writer.call("DELETE", "/v1/tokens/ci", A, null).status()).isEqualTo(204);
        long deleted = System.nanoTime();
        assertThat(writer.call("GET", "/v1/token", secret, null).status()).isEqualTo(401);
        Waits.until(
                () -> reader.call("GET", "/v1/token", secret, null).status() == 401,
                TokenRegistry.RECHECK.multipliedBy(3));
        Duration refusedAfter = Duration.ofNanos(System.nanoTime() - deleted);
        assertThat(reader.call("GET", "/v1/token", secret, null).status()).isEqualTo(401);
        assertThat(refusedAfter).isLessThan(TokenRegistry.RECHECK.plusMillis(500));
        assertThat(reader.call("DELETE", "/v1/tokens/ci", A, null).status()).isEqualTo(404);
        assertThat(tokenNames(reader)).doesNotContain("ci");
    }

    @Test
    void aTokensFileInTheReadersDataDirReachedTheStoreForBothServersAtItsStart() {
        Path readerDir = dataDirs.resolve("reader");
        assertThat(readerDir.resolve(TokensFileImport.FILE)).doesNotExist();
        assertThat(readerDir.resolve(TokensFileImport.IMPORTED)).exists();
        assertThat(readerStartLog)
                .filteredOn(r -> r.getLoggerName().equals(TokensFileImport.class.getName()))
                .extracting(r -> MessageFormat.format(r.getMessage(), r.getParameters()))
                .singleElement(InstanceOfAssertFactories.STRING)
                .startsWith("moved 1 managed tokens from ")
                .contains("(0 already there, 0 not imported)")
                .endsWith("the file is now tokens.json.imported");
        for (ServerFixture server : List.of(writer, reader)) {
            var self = server.call("GET", "/v1/token", FROM_FILE, null);
            assertThat(self.status()).as(self.body()).isEqualTo(200);
            assertThat(self.json().path("name").asText()).isEqualTo("nightly-export");
            assertThat(self.json().path("createdAt").asText())
                    .isEqualTo("2026-02-03T04:05:06.789Z");
        }
    }

    private static List<String> tokenNames(ServerFixture server) {
        var list = server.call("GET", "/v1/tokens", A, null);
        assertThat(list.status()).as(list.body()).isEqualTo(200);
        return list.json().path("items").findValuesAsText("name");
    }

    private List<String> recalledIds(String query) {
        JsonNode memories =
                reader.call(
                                "POST",
                                "/v1/namespaces/" + NS + "/recall",
                                A,
                                "{\"query\":\"" + query + "\"}")
                        .json()
                        .path("memories");
        List<String> ids = new ArrayList<>();
        memories.forEach(m -> ids.add(m.path("memory").path("id").asText()));
        return ids;
    }

    @Test
    void arkMessagesAndConversationDeletionReachTheOtherServersTranscriptSearch() {
        String conversation =
                writer.call("POST", "/ark/" + NS + "/conversations", A, null)
                        .json()
                        .path("conversation_id")
                        .asText();
        var appended =
                writer.call(
                        "POST",
                        "/ark/" + NS + "/messages",
                        A,
                        "{\"conversation_id\":\""
                                + conversation
                                + "\",\"query_id\":\"q1\",\"messages\":[{\"role\":\"user\","
                                + "\"content\":\"The turbine vibration sensor reads zero"
                                + " since Tuesday\"}]}");
        assertThat(appended.status()).isEqualTo(200);

        Supplier<List<String>> found =
                () ->
                        texts(
                                reader.call(
                                                "POST",
                                                "/v1/namespaces/" + NS + "/transcripts/search",
                                                A,
                                                "{\"query\":\"turbine vibration sensor\"}")
                                        .json()
                                        .path("items"),
                                "conversationId");
        assertThat(within(found, ids -> ids.contains(conversation))).isTrue();

        writer.call("DELETE", "/ark/" + NS + "/conversations/" + conversation, A, null);
        assertThat(within(found, ids -> !ids.contains(conversation))).isTrue();
    }

    @Test
    void keyValuePutsReachTheOtherServersOrlojSearchAndGet() {
        var put =
                writer.call(
                        "POST",
                        "/orloj/" + NS + "/put",
                        A,
                        "{\"key\":\"ops/pager\",\"value\":\"The pager rotation hands over on"
                                + " Mondays at nine\"}");
        assertThat(put.status()).isEqualTo(200);

        assertThat(
                        reader.call("POST", "/orloj/" + NS + "/get", A, "{\"key\":\"ops/pager\"}")
                                .json()
                                .path("found")
                                .asBoolean())
                .isTrue();
        Supplier<List<String>> searched =
                () ->
                        texts(
                                reader.call(
                                                "POST",
                                                "/orloj/" + NS + "/search",
                                                A,
                                                "{\"query\":\"pager rotation handover\","
                                                        + "\"top_k\":5}")
                                        .json()
                                        .path("results"),
                                "key");
        assertThat(within(searched, keys -> keys.contains("ops/pager"))).isTrue();

        writer.call(
                "POST",
                "/orloj/" + NS + "/put",
                A,
                "{\"key\":\"ops/pager\",\"value\":\"Escalations go to the duty manager\"}");
        Supplier<String> value =
                () ->
                        reader.call("POST", "/orloj/" + NS + "/get", A, "{\"key\":\"ops/pager\"}")
                                .json()
                                .path("value")
                                .asText();
        assertThat(within(value, v -> v.startsWith("Escalations"))).isTrue();
        // The reader's search index holds the new text: it ranks the entry first for its words.
        Supplier<String> best =
                () ->
                        reader.call(
                                        "POST",
                                        "/orloj/" + NS + "/search",
                                        A,
                                        "{\"query\":\"duty manager escalations\",\"top_k\":1}")
                                .json()
                                .path("results")
                                .path(0)
                                .path("value")
                                .asText();
        assertThat(within(best, v -> v.startsWith("Escalations"))).isTrue();
    }

    @Test
    void proposalsReachTheOtherServersList() {
        var filed =
                writer.call(
                        "POST",
                        "/v1/namespaces/" + NS + "/proposals",
                        A,
                        "{\"type\":\"memory\",\"title\":\"Prefer blue-green deploys\","
                                + "\"description\":\"Seen in three incidents\","
                                + "\"content\":\"Deploy the payments service blue-green\"}");
        assertThat(filed.status()).isEqualTo(201);
        String id = filed.json().path("id").asText();

        Supplier<List<String>> listed =
                () ->
                        texts(
                                reader.call("GET", "/v1/namespaces/" + NS + "/proposals", A, null)
                                        .json()
                                        .path("items"),
                                "id");
        assertThat(within(listed, ids -> ids.contains(id))).isTrue();
    }

    @Test
    void bothNameOneModelIdAndEachItsOwnPrecision() {
        JsonNode off = reader.call("GET", "/health", null, null).json().path("model");
        JsonNode on = writer.call("GET", "/health", null, null).json().path("model");
        assertThat(off.path("id").asText()).isEqualTo(MODEL_ID);
        assertThat(on.path("id").asText()).isEqualTo(MODEL_ID);
        assertThat(off.path("precision").asText()).isEqualTo("documents float32, queries float32");
        assertThat(on.path("precision").asText()).startsWith("documents ");
    }

    @Test
    void aMaintenanceRoundOnEitherServerEmbedsNothingTheOtherWrote() throws SQLException {
        assumeFalse(
                precision(writer).equals(precision(reader)),
                "this CPU offers no reduced precision: both servers compute in float32");
        List<String> ids = new ArrayList<>();
        for (ServerFixture server : List.of(reader, writer)) {
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

        assertThat(reader.server.memory().maintain().reembedded()).isZero();
        assertThat(writer.server.memory().maintain().reembedded()).isZero();
        assertThat(reader.server.memory().maintain().reembedded()).isZero();
        assertThat(reembeddedTotal(reader) + reembeddedTotal(writer))
                .as("scheduled rounds included")
                .isZero();
        for (ServerFixture server : List.of(reader, writer)) {
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
        int first = writer.server.memory().maintain().reembedded();
        int second = reader.server.memory().maintain().reembedded();
        assertThat(first + second).isEqualTo(1);
        assertThat(reembeddedTotal(reader) + reembeddedTotal(writer)).isEqualTo(1);
    }

    @Test
    void aDocumentIngestedByOneServerIsUnchangedForTheOther() {
        String document =
                "{\"id\":\"charge-retries\",\"title\":\"Charge retries\",\"format\":\"markdown\","
                        + "\"content\":\"# Retries\\n\\nA failed charge is retried three times,"
                        + " an hour apart.\"}";
        var ingested =
                writer.call(
                        "POST",
                        "/v1/namespaces/" + NS + "/documents?skipUnchanged=true",
                        A,
                        document);
        assertThat(ingested.status()).as(ingested.body()).isEqualTo(201);

        var again =
                reader.call(
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

    @Test
    void forgettingAUserOnOneServerPurgesTheOtherServersMemoryIndex() throws Exception {
        Random random = new Random(44);
        String gone = ForgetUserTest.marker(random);
        String kept = ForgetUserTest.marker(random);
        String user = "forgotten-" + random.nextInt(1_000_000);
        for (String[] memory : new String[][] {{user, gone}, {"stays", kept}}) {
            assertThat(
                            writer.call(
                                            "POST",
                                            "/v1/namespaces/" + NS + "/memories",
                                            A,
                                            "{\"type\":\"fact\",\"userId\":\""
                                                    + memory[0]
                                                    + "\",\"content\":\"the locker word is "
                                                    + memory[1]
                                                    + "\"}")
                                    .status())
                    .isEqualTo(201);
        }
        Path readerIndex = dataDirs.resolve("reader").resolve("lucene/memories").resolve(NS);
        // the reader applies the writes from the change log and commits its index on its own
        Waits.until(
                () -> !StoredBytes.segmentsWithTerm(readerIndex, gone).isEmpty(),
                Duration.ofSeconds(10));
        assertThat(StoredBytes.segmentsWithTerm(readerIndex, gone)).isNotEmpty();

        var forgot = writer.call("DELETE", "/v1/namespaces/" + NS + "/users/" + user, A, null);
        assertThat(forgot.status()).isEqualTo(200);
        assertThat(forgot.json().path("removed").path("memories").asLong()).isEqualTo(1);

        assertThat(
                        within(
                                () ->
                                        StoredBytes.segmentsWithTerm(readerIndex, gone).isEmpty()
                                                && StoredBytes.filesHolding(
                                                                dataDirs.resolve("reader"), gone)
                                                        .isEmpty(),
                                Boolean::booleanValue))
                .as("the reader's data dir forgets within %s", VISIBLE_WITHIN)
                .isTrue();
        assertThat(StoredBytes.segmentsWithTerm(readerIndex, kept)).isNotEmpty();
    }

    private static List<String> texts(JsonNode items, String field) {
        List<String> out = new ArrayList<>();
        items.forEach(i -> out.add(i.path(field).asText()));
        return out;
    }

    /** Polls {@code read} until {@code done} holds or {@link #VISIBLE_WITHIN} has passed. */
    private static <T> boolean within(Supplier<T> read, java.util.function.Predicate<T> done) {
        long deadline = System.nanoTime() + VISIBLE_WITHIN.toNanos();
        while (true) {
            if (done.test(read.get())) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
