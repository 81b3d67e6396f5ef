package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.server.auth.ApiToken;
import dev.cairn.server.auth.Role;
import dev.cairn.server.auth.TokenRegistry;
import dev.cairn.server.auth.TokensFileImport;
import dev.cairn.server.http.Json;
import dev.cairn.store.PostgresTestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two servers on one PostgreSQL, each with its own data dir, as behind the balancer: a token made
 * with {@code POST /v1/tokens} on one is accepted by the other on its first use, and once deleted
 * it is refused by the other within {@link TokenRegistry#RECHECK}. The second server starts on a
 * data dir holding a {@code tokens.json} from before tokens were kept in the store: it moves the
 * file's token into the store, where both servers find it, and says so at INFO.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TokensAcrossServersTest {

    static final String A = CairnCalls.ADMIN;

    /** The secret of the token in the second server's old {@code tokens.json}. */
    static final String FROM_FILE = ApiToken.newSecret();

    @TempDir static Path dataDirs;
    PostgresTestDatabase database;
    ServerFixture first;
    ServerFixture second;
    List<LogRecord> secondStartLog;

    @BeforeAll
    void start() throws Exception {
        if (!PostgresTestDatabase.available()) {
            return; // each test skips (or fails) on its own, so it is counted
        }
        database = PostgresTestDatabase.create();
        first = new ServerFixture(settings(dataDirs.resolve("first")));
        Path old = Files.createDirectories(dataDirs.resolve("second"));
        Files.write(
                old.resolve(TokensFileImport.FILE),
                Json.bytes(
                        List.of(
                                new ApiToken(
                                        "nightly-export",
                                        ApiToken.hash(FROM_FILE),
                                        Set.of(Role.READ),
                                        List.of("*"),
                                        Instant.parse("2026-02-03T04:05:06.789Z")))));
        try (LogCapture logs = new LogCapture(TokensFileImport.class.getName())) {
            second = new ServerFixture(settings(old));
            secondStartLog = List.copyOf(logs.records());
        }
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
            if (second != null) {
                second.close();
            }
            if (first != null) {
                first.close();
            }
        } finally {
            if (database != null) {
                database.close();
            }
        }
    }

    @Test
    void aTokenMadeOnOneServerWorksOnTheOtherAndIsRefusedThereWithinTheBoundOnceDeleted()
            throws Exception {
        var made =
                first.call(
                        "POST",
                        "/v1/tokens",
                        A,
                        "{\"name\":\"ci\",\"roles\":[\"read\"],\"namespaces\":[\"*\"]}");
        assertThat(made.status()).as(made.body()).isEqualTo(201);
        String secret = made.json().path("token").asText();

        var self = second.call("GET", "/v1/token", secret, null);
        assertThat(self.status()).as(self.body()).isEqualTo(200);
        assertThat(self.json().path("name").asText()).isEqualTo("ci");
        assertThat(self.json().path("createdAt").asText())
                .isEqualTo(made.json().path("createdAt").asText());
        assertThat(names(second.call("GET", "/v1/tokens", A, null))).contains("ci");

        // the same name on the other server: the store's key answers the 409
        var again =
                second.call(
                        "POST",
                        "/v1/tokens",
                        A,
                        "{\"name\":\"ci\",\"roles\":[\"admin\"],\"namespaces\":[\"*\"]}");
        assertThat(again.status()).as(again.body()).isEqualTo(409);
        assertThat(again.contentType()).startsWith("application/problem+json");

        assertThat(first.call("DELETE", "/v1/tokens/ci", A, null).status()).isEqualTo(204);
        long deleted = System.nanoTime();
        assertThat(first.call("GET", "/v1/token", secret, null).status()).isEqualTo(401);
        Waits.until(
                () -> second.call("GET", "/v1/token", secret, null).status() == 401,
                TokenRegistry.RECHECK.multipliedBy(3));
        Duration refusedAfter = Duration.ofNanos(System.nanoTime() - deleted);
        assertThat(second.call("GET", "/v1/token", secret, null).status()).isEqualTo(401);
        assertThat(refusedAfter).isLessThan(TokenRegistry.RECHECK.plusMillis(500));
        assertThat(second.call("DELETE", "/v1/tokens/ci", A, null).status()).isEqualTo(404);
        assertThat(names(second.call("GET", "/v1/tokens", A, null))).doesNotContain("ci");
    }

    @Test
    void aTokensFileOnTheSecondServersDataDirReachedTheStoreForBothServers() {
        assertThat(dataDirs.resolve("second").resolve(TokensFileImport.FILE)).doesNotExist();
        assertThat(dataDirs.resolve("second").resolve(TokensFileImport.IMPORTED)).exists();
        assertThat(secondStartLog)
                .filteredOn(r -> r.getLoggerName().equals(TokensFileImport.class.getName()))
                .singleElement()
                .satisfies(
                        r ->
                                assertThat(
                                                java.text.MessageFormat.format(
                                                        r.getMessage(), r.getParameters()))
                                        .startsWith("moved 1 managed tokens from ")
                                        .contains("(0 already there, 0 not imported)")
                                        .endsWith("the file is now tokens.json.imported"));
        for (ServerFixture server : List.of(first, second)) {
            var self = server.call("GET", "/v1/token", FROM_FILE, null);
            assertThat(self.status()).as(self.body()).isEqualTo(200);
            assertThat(self.json().path("name").asText()).isEqualTo("nightly-export");
            assertThat(self.json().path("createdAt").asText())
                    .isEqualTo("2026-02-03T04:05:06.789Z");
        }
    }

    private static List<String> names(CairnCalls.Response list) {
        assertThat(list.status()).as(list.body()).isEqualTo(200);
        return list.json().path("items").findValuesAsText("name");
    }
}
