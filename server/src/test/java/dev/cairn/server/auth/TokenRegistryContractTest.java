package dev.cairn.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.server.http.Json;
import dev.cairn.store.Store;
import dev.cairn.store.StoredToken;
import dev.cairn.store.StoredTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TokenRegistry} over a store, as servers run it: two registries on two stores opened on one
 * location stand for two servers sharing one database. A subclass supplies the location (an
 * embedded data dir, a PostgreSQL schema) and opens stores on it.
 */
abstract class TokenRegistryContractTest {

    static final String FIXED_SECRET = "fixed-secret-for-the-registry-contract";
    static final ApiToken FIXED =
            new ApiToken(
                    "deploy",
                    ApiToken.hash(FIXED_SECRET),
                    Set.of(Role.WRITE),
                    List.of("ops"),
                    Instant.EPOCH);

    @TempDir Path temp;
    private final List<Store> stores = new ArrayList<>();

    /** Prepares a fresh, empty location for the stores this test opens. */
    protected abstract void newLocation();

    /** Opens a store on the current location; callable several times. */
    protected abstract Store open();

    @BeforeEach
    void location() {
        newLocation();
    }

    @AfterEach
    void closeStores() {
        stores.forEach(Store::close);
        stores.clear();
    }

    /** A server's registry: its own store connection, the fixed token configured. */
    TokenRegistry server() {
        Store store = open();
        stores.add(store);
        return TokenRegistry.create(List.of(FIXED), store.tokens());
    }

    @Test
    void aTokenMadeOnOneServerIsAcceptedByAnotherAtOnceAndListedThere() {
        TokenRegistry a = server();
        TokenRegistry b = server();
        assertThat(b.list()).extracting(ApiToken::name).containsExactly("deploy");

        String secret = a.create("ci", Set.of(Role.READ, Role.REVIEW), List.of("ops", "billing"));

        ApiToken onB = b.authenticate(secret).orElseThrow();
        assertThat(onB).isEqualTo(a.authenticate(secret).orElseThrow());
        assertThat(onB.roles()).containsExactlyInAnyOrder(Role.READ, Role.REVIEW);
        assertThat(onB.namespaces()).containsExactly("ops", "billing");
        assertThat(b.list()).extracting(ApiToken::name).containsExactly("ci", "deploy");
        assertThat(b.authenticate(secret + "x")).isEmpty();
    }

    @Test
    void aTokenMadeOnAnotherServerIsLookedUpInTheStoreOnceThenAnsweredFromMemory() {
        TokenRegistry a = server();
        Store store = open();
        stores.add(store);
        CountingTokens counting = new CountingTokens(store.tokens());
        TokenRegistry b = TokenRegistry.create(List.of(FIXED), counting);
        String secret = a.create("ci", Set.of(Role.READ), List.of("*"));
        int lookupsBefore = counting.lookups.get();

        for (int i = 0; i < 50; i++) {
            assertThat(b.authenticate(secret)).map(ApiToken::name).contains("ci");
        }

        // one lookup by hash on the first use; the next 49 come from the reread tokens (a recheck
        // of the revision may fall inside the loop on a slow machine, but never a lookup)
        assertThat(counting.lookups.get() - lookupsBefore).isEqualTo(1);
    }

    /** The store's tokens, answered by the store, with the lookups by hash counted. */
    private record CountingTokens(StoredTokens store, AtomicInteger lookups)
            implements StoredTokens {

        CountingTokens(StoredTokens store) {
            this(store, new AtomicInteger());
        }

        @Override
        public List<StoredToken> all() {
            return store.all();
        }

        @Override
        public Optional<StoredToken> byHash(String sha256) {
            lookups.incrementAndGet();
            return store.byHash(sha256);
        }

        @Override
        public void insert(StoredToken token) {
            store.insert(token);
        }

        @Override
        public int insertMissing(Collection<StoredToken> tokens) {
            return store.insertMissing(tokens);
        }

        @Override
        public boolean delete(String name) {
            return store.delete(name);
        }

        @Override
        public long revision() {
            return store.revision();
        }
    }

    @Test
    void aTokenDeletedOnOneServerIsRefusedByAnotherWithinTheRecheck() throws Exception {
        TokenRegistry a = server();
        TokenRegistry b = server();
        String secret = a.create("ci", Set.of(Role.READ), List.of("*"));
        assertThat(b.authenticate(secret)).isPresent();
        // b holds it in memory from here: its list read the store
        assertThat(b.list()).extracting(ApiToken::name).contains("ci");

        assertThat(a.delete("ci")).isTrue();
        long deleted = System.nanoTime();
        assertThat(a.authenticate(secret)).isEmpty();
        while (b.authenticate(secret).isPresent()) {
            assertThat(Duration.ofNanos(System.nanoTime() - deleted))
                    .isLessThan(TokenRegistry.RECHECK.plusMillis(500));
            Thread.sleep(20);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - deleted))
                .isLessThan(TokenRegistry.RECHECK.plusMillis(500));
        assertThat(b.delete("ci")).isFalse();
        assertThat(b.list()).extracting(ApiToken::name).containsExactly("deploy");
    }

    @Test
    void ofTwoServersCreatingOneNameAtOnceOneWinsAndTheOtherIsIllegalState() throws Exception {
        TokenRegistry a = server();
        TokenRegistry b = server();
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < 5; round++) {
                String name = "race-" + round;
                List<Future<String>> made = new ArrayList<>();
                for (TokenRegistry on : List.of(a, b)) {
                    made.add(
                            pool.submit(
                                    () -> {
                                        try {
                                            return on.create(
                                                    name, Set.of(Role.READ), List.of("ops"));
                                        } catch (IllegalStateException e) {
                                            return e.getMessage();
                                        }
                                    }));
                }
                List<String> answers = List.of(made.get(0).get(), made.get(1).get());
                assertThat(answers)
                        .as("round %d", round)
                        .filteredOn(s -> s.startsWith("cairn_"))
                        .hasSize(1);
                assertThat(answers).contains("token '" + name + "' exists");
            }
        }
        assertThat(a.list()).hasSize(6);
        assertThat(a.create("solo", Set.of(Role.READ), List.of("ops"))).startsWith("cairn_");
        assertThatThrownBy(() -> b.create("solo", Set.of(Role.ADMIN), List.of("*")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("token 'solo' exists");
    }

    @Test
    void fixedAndSessionTokensWorkAsBeforeAndStayOutOfTheStore() {
        TokenRegistry a = server();
        TokenRegistry b = server();
        assertThat(a.authenticate(FIXED_SECRET)).contains(FIXED);
        String session = a.createSession("local-cli", Set.of(Role.ADMIN), List.of("*"));
        assertThat(a.authenticate(session)).map(ApiToken::name).contains("local-cli");
        assertThat(b.authenticate(session)).isEmpty();
        assertThat(a.list()).extracting(ApiToken::name).containsExactly("deploy", "local-cli");
        assertThat(b.list()).extracting(ApiToken::name).containsExactly("deploy");

        for (String taken : List.of("deploy", "local-cli")) {
            assertThatThrownBy(() -> a.create(taken, Set.of(Role.READ), List.of("ops")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("token '" + taken + "' exists");
            assertThatThrownBy(() -> a.delete(taken))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cannot be deleted");
        }
        b.create("ci", Set.of(Role.READ), List.of("ops"));
        assertThatThrownBy(() -> a.createSession("ci", Set.of(Role.READ), List.of("ops")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("token 'ci' exists");
        assertThat(a.delete("nobody")).isFalse();
    }

    @Test
    void aTokensFileIsMovedIntoTheStoreOnceAndItsTokensWorkOnEveryServer() throws Exception {
        String kept = ApiToken.newSecret();
        String clashing = ApiToken.newSecret();
        TokenRegistry a = server();
        a.create("taken", Set.of(Role.READ), List.of("*"));
        // b was asked for the file's token before the file reached the store: refused then
        TokenRegistry b = server();
        assertThat(b.authenticate(kept)).isEmpty();

        Path dataDir = Files.createDirectories(temp.resolve("old-server"));
        List<ApiToken> file =
                List.of(
                        new ApiToken(
                                "nightly",
                                ApiToken.hash(kept),
                                Set.of(Role.WRITE),
                                List.of("ops"),
                                Instant.parse("2026-01-02T03:04:05.678Z")),
                        new ApiToken(
                                "taken",
                                ApiToken.hash(clashing),
                                Set.of(Role.ADMIN),
                                List.of("*"),
                                Instant.parse("2026-01-02T03:04:05.678Z")));
        Files.write(dataDir.resolve(TokensFileImport.FILE), Json.bytes(file));
        Store third = open();
        stores.add(third);

        assertThat(TokensFileImport.run(dataDir, third.tokens())).isEqualTo(1);
        assertThat(dataDir.resolve(TokensFileImport.FILE)).doesNotExist();
        assertThat(dataDir.resolve(TokensFileImport.IMPORTED)).exists();
        assertThat(TokensFileImport.run(dataDir, third.tokens())).isZero();

        assertThat(a.authenticate(kept)).contains(file.getFirst());
        long imported = System.nanoTime();
        while (b.authenticate(kept).isEmpty()) {
            assertThat(Duration.ofNanos(System.nanoTime() - imported))
                    .isLessThan(TokenRegistry.RECHECK.plusMillis(500));
            Thread.sleep(20);
        }
        // the store's own token of that name stays; the file's is not imported
        assertThat(a.authenticate(clashing)).isEmpty();
        assertThat(a.list())
                .extracting(ApiToken::name)
                .containsExactly("deploy", "nightly", "taken");

        // the same file again (a crash before the rename) adds nothing
        Files.move(
                dataDir.resolve(TokensFileImport.IMPORTED), dataDir.resolve(TokensFileImport.FILE));
        assertThat(TokensFileImport.run(dataDir, third.tokens())).isZero();
        assertThat(third.tokens().all()).hasSize(2);
    }
}
