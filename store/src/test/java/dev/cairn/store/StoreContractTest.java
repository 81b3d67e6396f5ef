package dev.cairn.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link Store} backend shares. A subclass supplies a fresh, empty location per
 * test and opens stores on it.
 */
abstract class StoreContractTest {

    /** Small vectors keep the tests fast; the behaviour does not depend on the dimension. */
    static final int DIMS = 16;

    static final long SEED = 20261122L;

    protected Store store;

    /** Prepares a fresh, empty location (directory, schema) for the next {@link #open}. */
    protected abstract void newLocation();

    /** Opens a store on the current location; callable several times. */
    protected abstract Store open(StoreConfig config);

    protected abstract Store.Kind expectedKind();

    static StoreConfig config() {
        return StoreConfig.defaults().withDimensions(DIMS).withMaxPoolSize(4);
    }

    @BeforeEach
    void openStore() {
        newLocation();
        store = open(config());
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    // ---- lifecycle and migrations --------------------------------------------------------

    @Test
    void answersItsKindAndPings() {
        assertThat(store.kind()).isEqualTo(expectedKind());
        assertThat(store.config()).isEqualTo(config());
        store.ping();
    }

    @Test
    void reopeningAppliesNoMigrationTwiceAndKeepsData() {
        store.createNamespace("kept", "survives reopening");
        appendChange("kept", Change.Kind.MEMORY, "m1", Change.Op.UPSERT);
        long seq = store.lastChangeSeq();
        store.close();

        for (int i = 0; i < 2; i++) {
            try (Store again = open(config())) {
                assertThat(again.namespace("kept"))
                        .map(Namespace::description)
                        .contains("survives reopening");
                assertThat(again.lastChangeSeq()).isEqualTo(seq);
            }
        }
        store = open(config());
    }

    @Test
    void instanceIdStaysWithTheDatabaseAndDiffersBetweenDatabases() {
        String id = store.instanceId();
        store.deleteNamespace("none"); // a write changes nothing of it
        store.close();
        try (Store again = open(config())) {
            assertThat(again.instanceId()).isEqualTo(id).matches("[0-9a-f]{32}");
        }
        newLocation();
        store = open(config());
        assertThat(store.instanceId()).isNotEqualTo(id).matches("[0-9a-f]{32}");
    }

    @Test
    void twoStoresOpeningOneLocationAtOnceBothSucceed() throws Exception {
        store.close();
        store = null;
        newLocation();
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            Callable<Store> opening = () -> open(config());
            Future<Store> first = pool.submit(opening);
            Future<Store> second = pool.submit(opening);
            try (Store a = first.get();
                    Store b = second.get()) {
                a.createNamespace("shared", "");
                assertThat(b.namespace("shared")).isPresent();
            }
        }
        store = open(config());
    }

    @Test
    void reopeningWithOtherDimensionsIsIllegalState() {
        store.close();
        store = null;
        assertThatThrownBy(() -> open(config().withDimensions(DIMS + 1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(Integer.toString(DIMS));
        store = open(config());
    }

    // ---- vectors -------------------------------------------------------------------------

    @Test
    void readsEveryVectorBackBitForBitAsSelectVectorSelectsIt() {
        SqlAccess sql = store.sql();
        String type = sql.dialect() == SqlAccess.Dialect.POSTGRES ? "vector(5)" : "BLOB";
        // a third, the extremes of a float's range, a negative zero: decimals that must round-trip
        float[] stored = {1f / 3, -Float.MAX_VALUE, Float.MIN_NORMAL, -0f, 1.0e-30f};
        store.createNamespace("vectors", "");
        List<float[]> read =
                sql.write(
                        "vectors",
                        c -> {
                            try (var s = c.createStatement()) {
                                s.execute("CREATE TABLE vectors_read (id INTEGER, v " + type + ")");
                            }
                            try (var insert =
                                    c.prepareStatement("INSERT INTO vectors_read VALUES (?, ?)")) {
                                insert.setInt(1, 1);
                                sql.bindVector(insert, 2, stored);
                                insert.execute();
                                insert.setInt(1, 2);
                                sql.bindVector(insert, 2, new float[0]);
                                insert.execute();
                            }
                            List<float[]> out = new ArrayList<>();
                            try (var select =
                                            c.prepareStatement(
                                                    "SELECT id, "
                                                            + sql.selectVector("v")
                                                            + " FROM vectors_read ORDER BY id");
                                    var rs = select.executeQuery()) {
                                while (rs.next()) {
                                    out.add(sql.readVector(rs, "v"));
                                }
                            }
                            return out;
                        });

        assertThat(read).hasSize(2);
        assertThat(floatBits(read.get(0))).containsExactly(floatBits(stored));
        assertThat(read.get(1)).as("SQL NULL").isEmpty();
    }

    private static int[] floatBits(float[] vector) {
        int[] bits = new int[vector.length];
        for (int i = 0; i < vector.length; i++) {
            bits[i] = Float.floatToRawIntBits(vector[i]);
        }
        return bits;
    }

    // ---- namespaces ----------------------------------------------------------------------

    @Test
    void createsFindsAndDeletesNamespaces() {
        Namespace created = store.createNamespace("alpha", "first");

        assertThat(created.name()).isEqualTo("alpha");
        assertThat(store.namespace("alpha")).contains(created);
        assertThat(store.namespace("beta")).isEmpty();
        assertThat(store.deleteNamespace("alpha")).isTrue();
        assertThat(store.deleteNamespace("alpha")).isFalse();
        assertThat(store.namespace("alpha")).isEmpty();
    }

    @Test
    void aNewNamespaceRecallsOneUserAndItsRecallScopeCanBeChanged() {
        assertThat(store.createNamespace("alpha", "first").recallScope())
                .isEqualTo(Namespace.RecallScope.USER);
        assertThat(store.createNamespace("beta", "", Namespace.RecallScope.NAMESPACE).recallScope())
                .isEqualTo(Namespace.RecallScope.NAMESPACE);
        long before = store.lastChangeSeq();

        assertThat(store.setRecallScope("alpha", Namespace.RecallScope.NAMESPACE))
                .map(Namespace::recallScope)
                .contains(Namespace.RecallScope.NAMESPACE);

        assertThat(store.namespace("alpha").orElseThrow().recallScope())
                .isEqualTo(Namespace.RecallScope.NAMESPACE);
        assertThat(store.namespace("beta").orElseThrow().recallScope())
                .isEqualTo(Namespace.RecallScope.NAMESPACE);
        assertThat(store.lastChangeSeq()).as("other servers hear of it").isGreaterThan(before);
        assertThat(store.setRecallScope("gamma", Namespace.RecallScope.USER)).isEmpty();
        assertThat(store.namespace("gamma")).isEmpty();
    }

    @Test
    void creatingAnExistingNamespaceIsIllegalState() {
        store.createNamespace("alpha", "first");

        assertThatThrownBy(() -> store.createNamespace("alpha", "again"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("alpha");
        assertThat(store.namespace("alpha")).map(Namespace::description).contains("first");
    }

    @Test
    void illegalNamespaceNameIsIllegalArgument() {
        assertThatThrownBy(() -> store.createNamespace("Bad Name", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Bad Name");
    }

    @Test
    void pagesNamespacesByNameWithCursors() {
        List<String> names = List.of("ns-c", "ns-a", "ns-e", "ns-b", "ns-d");
        names.forEach(n -> store.createNamespace(n, ""));

        List<String> seen = new ArrayList<>();
        PageRequest request = PageRequest.first(2);
        int pages = 0;
        while (true) {
            Page<Namespace> page = store.namespaces(request);
            assertThat(page.total()).isEqualTo(5);
            page.items().forEach(n -> seen.add(n.name()));
            pages++;
            if (!page.hasMore()) {
                break;
            }
            request = new PageRequest(2, page.nextCursor());
        }
        assertThat(pages).isEqualTo(3);
        assertThat(seen).containsExactly("ns-a", "ns-b", "ns-c", "ns-d", "ns-e");
    }

    // ---- change sequence -----------------------------------------------------------------

    @Test
    void changeSequenceRecordsEveryWriteInOrder() {
        long start = store.lastChangeSeq();
        store.createNamespace("log", "");
        appendChange("log", Change.Kind.DOCUMENT, "d1", Change.Op.UPSERT);
        store.setRecallScope("log", Namespace.RecallScope.NAMESPACE);
        store.sql()
                .write(
                        "log",
                        c -> {
                            store.sql()
                                    .appendChanges(
                                            c,
                                            "log",
                                            Change.Kind.MEMORY,
                                            List.of("m2", "m1"),
                                            Change.Op.UPSERT);
                            return null;
                        });
        appendChange("log", Change.Kind.DOCUMENT, "d1", Change.Op.DELETE);

        List<Change> changes = store.changesSince(start, 100);

        assertThat(changes)
                .extracting(c -> c.kind() + " " + c.op() + " " + c.entityId())
                .containsExactly(
                        "NAMESPACE UPSERT log",
                        "DOCUMENT UPSERT d1",
                        "NAMESPACE UPSERT log",
                        "MEMORY UPSERT m2",
                        "MEMORY UPSERT m1",
                        "DOCUMENT DELETE d1");
        assertThat(changes).extracting(Change::namespace).containsOnly("log");
        assertThat(changes).extracting(Change::seq).isSorted().doesNotHaveDuplicates();
        assertThat(store.lastChangeSeq()).isEqualTo(changes.get(changes.size() - 1).seq());
    }

    @Test
    void catchUpInSmallBatchesSeesEveryChangeOnce() {
        long applied = store.lastChangeSeq();
        store.createNamespace("one", "");
        store.createNamespace("two", "");
        for (int i = 0; i < 5; i++) {
            appendChange(
                    i % 2 == 0 ? "one" : "two", Change.Kind.DOCUMENT, "d" + i, Change.Op.UPSERT);
        }
        List<Change> everything = store.changesSince(applied, 1000);

        List<Change> caughtUp = new ArrayList<>();
        List<Change> batch;
        while (!(batch = store.changesSince(applied, 2)).isEmpty()) {
            assertThat(batch).hasSizeLessThanOrEqualTo(2);
            caughtUp.addAll(batch);
            applied = batch.get(batch.size() - 1).seq();
        }

        assertThat(everything).hasSize(7);
        assertThat(caughtUp).isEqualTo(everything);
        assertThat(applied).isEqualTo(store.lastChangeSeq());
    }

    @Test
    void deletingANamespaceLeavesOneNamespaceDeleteInTheSequence() {
        long start = store.lastChangeSeq();
        store.createNamespace("tmp", "");
        appendChange("tmp", Change.Kind.DOCUMENT, "d1", Change.Op.UPSERT);

        store.deleteNamespace("tmp");

        assertThat(store.changesSince(start, 100))
                .extracting(c -> c.kind() + " " + c.op() + " " + c.entityId())
                .containsExactly("NAMESPACE DELETE tmp");
    }

    @Test
    void illegalChangeQueriesAreIllegalArgument() {
        assertThatThrownBy(() -> store.changesSince(-1, 10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.changesSince(0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit: 0");
    }

    @Test
    void aWriteIntoAnUnknownNamespaceIsNoSuchElementAndAppendsNothing() {
        long before = store.lastChangeSeq();

        assertThatThrownBy(
                        () -> appendChange("nowhere", Change.Kind.MEMORY, "m1", Change.Op.UPSERT))
                .isInstanceOf(NoSuchElementException.class)
                .hasMessageContaining("nowhere");
        assertThat(store.lastChangeSeq()).isEqualTo(before);
    }

    private void appendChange(String namespace, Change.Kind kind, String entityId, Change.Op op) {
        appendChange(store, namespace, kind, entityId, op);
    }

    /** One change row written the way a module writes its rows: in a {@link SqlAccess#write}. */
    static void appendChange(
            Store store, String namespace, Change.Kind kind, String entityId, Change.Op op) {
        store.sql()
                .write(
                        namespace,
                        c -> {
                            store.sql().appendChange(c, namespace, kind, entityId, op);
                            return null;
                        });
    }

    // ---- forgetting a user ---------------------------------------------------------------

    @Test
    void forgettingAUserRunsTheEraseAndKeepsAnAuditRecordWithoutContent() {
        store.createNamespace("forget", "");
        long before = store.lastChangeSeq();
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("memories", 3L);
        counts.put("messages", 0L);

        ForgetRecord record =
                store.forgetUser(
                        "forget",
                        "alice",
                        "ops-token",
                        c -> {
                            store.sql()
                                    .appendChange(
                                            c,
                                            "forget",
                                            Change.Kind.MEMORY,
                                            "m1",
                                            Change.Op.DELETE);
                            return counts;
                        });

        assertThat(record.namespace()).isEqualTo("forget");
        assertThat(record.userId()).isEqualTo("alice");
        assertThat(record.requestedBy()).isEqualTo("ops-token");
        assertThat(record.counts())
                .containsExactly(Map.entry("memories", 3L), Map.entry("messages", 0L));
        assertThat(record.total()).isEqualTo(3);
        assertThat(store.forgetRecords("forget")).containsExactly(record);
        // the erase's deletions first, then the USER change naming the record, not the user
        assertThat(store.changesSince(before, 10))
                .extracting(Change::kind, Change::entityId, Change::op)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                Change.Kind.MEMORY, "m1", Change.Op.DELETE),
                        org.assertj.core.groups.Tuple.tuple(
                                Change.Kind.USER, record.id(), Change.Op.DELETE));
        // the record outlives its namespace
        assertThat(store.deleteNamespace("forget")).isTrue();
        assertThat(store.forgetRecords("forget")).containsExactly(record);
    }

    @Test
    void aFailingEraseLeavesNoAuditRecordAndNoChange() {
        store.createNamespace("forget", "");
        long before = store.lastChangeSeq();

        assertThatThrownBy(
                        () ->
                                store.forgetUser(
                                        "forget",
                                        "alice",
                                        "ops-token",
                                        c -> {
                                            store.sql()
                                                    .appendChange(
                                                            c,
                                                            "forget",
                                                            Change.Kind.MEMORY,
                                                            "m1",
                                                            Change.Op.DELETE);
                                            throw new IllegalStateException("disk full");
                                        }))
                .hasMessageContaining("disk full");

        assertThat(store.forgetRecords("forget")).isEmpty();
        assertThat(store.lastChangeSeq()).isEqualTo(before);
    }

    @Test
    void forgettingNeedsAnExistingNamespaceAndAUser() {
        assertThatThrownBy(() -> store.forgetUser("nowhere", "alice", "ops", c -> Map.of()))
                .isInstanceOf(NoSuchElementException.class);
        store.createNamespace("forget", "");
        assertThatThrownBy(() -> store.forgetUser("forget", " ", "ops", c -> Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("userId");
        assertThat(store.forgetRecords("forget")).isEmpty();
    }

    // ---- lists of ids ------------------------------------------------------------------------

    /**
     * Ids a list could mangle on its way into SQL: array syntax, quotes, a backslash, the words an
     * array literal reads as NULL, the empty id, spaces kept, letters outside ASCII.
     */
    static final List<String> AWKWARD_IDS =
            List.of(
                    "a,b",
                    "\"quoted\"",
                    "{braces}",
                    "back\\slash",
                    "NULL",
                    "",
                    " spaced ",
                    "grüße",
                    "emoji-\uD83D\uDE00",
                    "it's");

    /** A table of {@code namespace, id} rows: {@code ids} in each of {@code namespaces}. */
    private void listedRows(List<String> ids, String... namespaces) {
        for (String ns : namespaces) {
            store.createNamespace(ns, "");
        }
        store.sql()
                .write(
                        namespaces[0],
                        c -> {
                            try (java.sql.Statement s = c.createStatement()) {
                                s.execute(
                                        "CREATE TABLE listed_rows (namespace text NOT NULL,"
                                                + " id text NOT NULL, PRIMARY KEY (namespace, id))");
                            }
                            try (java.sql.PreparedStatement ps =
                                    c.prepareStatement("INSERT INTO listed_rows VALUES (?, ?)")) {
                                for (String ns : namespaces) {
                                    for (String id : ids) {
                                        ps.setString(1, ns);
                                        ps.setString(2, id);
                                        ps.addBatch();
                                    }
                                }
                                ps.executeBatch();
                            }
                            return null;
                        });
    }

    private List<String> listedIds(String namespace) {
        return store.sql()
                .read(
                        c ->
                                ErasureSql.strings(
                                        c,
                                        "SELECT id FROM listed_rows WHERE namespace = ?",
                                        List.of(namespace)));
    }

    @Test
    void aListOfIdsMatchesExactlyItsIdsOfItsNamespaceAcrossBatches() {
        List<String> all = new ArrayList<>(AWKWARD_IDS);
        all.add("null"); // not listed: only "NULL" is
        for (int i = 0; i < 300; i++) {
            all.add(String.format("row-%04d", i));
        }
        listedRows(all, "listed", "beside");
        List<String> wanted = new ArrayList<>(AWKWARD_IDS);
        for (int i = 0; i < 300; i += 3) {
            wanted.add(String.format("row-%04d", i));
        }
        List<String> list = ScatteredIds.among(wanted, SEED);
        SqlAccess sql = store.sql();

        List<String> read =
                sql.read(
                        c ->
                                ErasureSql.stringsIn(
                                        c,
                                        sql,
                                        "SELECT id FROM listed_rows WHERE namespace = ?",
                                        List.of("listed"),
                                        "id",
                                        list));
        long deleted =
                sql.write(
                        "listed",
                        c ->
                                ErasureSql.deleteIn(
                                        c,
                                        sql,
                                        "DELETE FROM listed_rows WHERE namespace = ?",
                                        List.of("listed"),
                                        "id",
                                        list));

        assertThat(read).as("seed %d", SEED).containsExactlyInAnyOrderElementsOf(wanted);
        assertThat(deleted).isEqualTo(wanted.size());
        List<String> left = new ArrayList<>(all);
        left.removeAll(wanted);
        assertThat(listedIds("listed")).containsExactlyInAnyOrderElementsOf(left);
        assertThat(listedIds("beside")).containsExactlyInAnyOrderElementsOf(all);
    }

    @Test
    void aListOfIdsThatMatchesNothingReadsAndDeletesNothing() {
        listedRows(List.of("a", "b"), "listed");
        SqlAccess sql = store.sql();
        String select = "SELECT id FROM listed_rows WHERE namespace = ?";
        String delete = "DELETE FROM listed_rows WHERE namespace = ?";
        List<String> absent = List.of(ScatteredIds.ABSENT + "a", "A", "b ");

        for (List<String> ids : List.of(List.<String>of(), absent)) {
            List<String> read =
                    sql.read(
                            c ->
                                    ErasureSql.stringsIn(
                                            c, sql, select, List.of("listed"), "id", ids));
            long deleted =
                    sql.write(
                            "listed",
                            c -> ErasureSql.deleteIn(c, sql, delete, List.of("listed"), "id", ids));
            assertThat(read).as("%s", ids).isEmpty();
            assertThat(deleted).as("%s", ids).isZero();
        }
        assertThat(listedIds("listed")).containsExactlyInAnyOrder("a", "b");
        assertThatThrownBy(() -> new OneOf(sql.dialect(), "id", List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("none");
    }

    // ---- API tokens ----------------------------------------------------------------------

    static StoredToken token(String name, char hashDigit) {
        return new StoredToken(
                name,
                String.valueOf(hashDigit).repeat(64),
                List.of("read", "write"),
                List.of("ops", "billing"),
                java.time.Instant.parse("2026-03-01T10:15:30.123Z"));
    }

    @Test
    void tokensAreKeptFoundByHashDeletedAndEachChangeRaisesTheRevision() {
        StoredTokens tokens = store.tokens();
        assertThat(tokens.all()).isEmpty();
        long initial = tokens.revision();

        StoredToken ci = token("ci", 'a');
        tokens.insert(ci);
        tokens.insert(token("backup", 'b'));
        long afterInserts = tokens.revision();
        assertThat(afterInserts).isEqualTo(initial + 2);

        assertThat(tokens.all()).extracting(StoredToken::name).containsExactly("backup", "ci");
        assertThat(tokens.byHash("a".repeat(64))).contains(ci);
        assertThat(tokens.byHash("c".repeat(64))).isEmpty();

        assertThat(tokens.delete("ci")).isTrue();
        assertThat(tokens.revision()).isEqualTo(afterInserts + 1);
        assertThat(tokens.delete("ci")).isFalse();
        assertThat(tokens.revision()).isEqualTo(afterInserts + 1);
        assertThat(tokens.byHash("a".repeat(64))).isEmpty();

        store.close();
        store = open(config());
        assertThat(store.tokens().all()).containsExactly(token("backup", 'b'));
        assertThat(store.tokens().revision()).isEqualTo(afterInserts + 1);
    }

    @Test
    void aTokenNameOrHashIsKeptOnceAndOfTwoConcurrentCreatesOneWins() throws Exception {
        StoredTokens tokens = store.tokens();
        tokens.insert(token("ci", 'a'));
        assertThatThrownBy(() -> tokens.insert(token("ci", 'b')))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("token 'ci' exists");
        assertThatThrownBy(() -> tokens.insert(token("other", 'a')))
                .isInstanceOf(IllegalStateException.class);

        // two stores on one location, as two servers on one database
        try (Store second = open(config());
                ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < 5; round++) {
                String name = "race-" + round;
                char[] digits = {'c', 'd'};
                List<Future<Boolean>> made = new ArrayList<>();
                Store[] stores = {store, second};
                for (int i = 0; i < 2; i++) {
                    StoredTokens on = stores[i].tokens();
                    StoredToken t =
                            new StoredToken(
                                    name,
                                    (digits[i] + "" + round).repeat(32),
                                    List.of("admin"),
                                    List.of("*"),
                                    java.time.Instant.EPOCH);
                    made.add(
                            pool.submit(
                                    () -> {
                                        try {
                                            on.insert(t);
                                            return true;
                                        } catch (IllegalStateException e) {
                                            return false;
                                        }
                                    }));
                }
                assertThat(List.of(made.get(0).get(), made.get(1).get()))
                        .as("round %d", round)
                        .containsExactlyInAnyOrder(true, false);
            }
            assertThat(second.tokens().all()).hasSize(6);
        }
    }

    @Test
    void insertMissingAddsOnlyTokensWhoseNameAndHashAreNewAndCanRunAgain() {
        StoredTokens tokens = store.tokens();
        tokens.insert(token("ci", 'a'));
        long before = tokens.revision();

        List<StoredToken> file = List.of(token("ci", 'f'), token("deploy", 'a'), token("ops", 'e'));
        assertThat(tokens.insertMissing(file)).isEqualTo(1);
        assertThat(tokens.revision()).isEqualTo(before + 1);
        assertThat(tokens.insertMissing(file)).isZero();
        assertThat(tokens.revision()).isEqualTo(before + 1);
        assertThat(tokens.all()).containsExactly(token("ci", 'a'), token("ops", 'e'));
    }
}
