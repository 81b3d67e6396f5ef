package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.memory.MemoryType;
import dev.cairn.memory.NewMemory;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.retrieval.ingest.DocumentParser;
import dev.cairn.server.CairnServer;
import dev.cairn.server.ServerMarker;
import dev.cairn.server.ServerSettings;
import dev.cairn.store.Store;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local {@code cairn retrieve} on a data dir a running server holds asks that server (found
 * through its {@link ServerMarker}) instead of loading the encoder, and says so on stderr.
 */
class LocalCommandUsesRunningServerTest {

    @TempDir Path dir;

    private record Outcome(int exit, String out, String err) {}

    private static synchronized Outcome run(String... args) {
        StringWriter err = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        PrintStream previousOut = System.out;
        PrintStream previousErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try {
            int exit = Main.run(new PrintWriter(err, true), args);
            return new Outcome(
                    exit,
                    out.toString(StandardCharsets.UTF_8),
                    stderr.toString(StandardCharsets.UTF_8) + err);
        } finally {
            System.setOut(previousOut);
            System.setErr(previousErr);
        }
    }

    private static CairnServer startOn(Path data) {
        return CairnServer.start(
                ServerSettings.defaults(data)
                        .withPort(0)
                        .withAdminToken("local-cli-test-admin-token-0123456789"));
    }

    @Test
    void retrieveWithoutServerOptionAsksTheServerHoldingTheDataDir() throws Exception {
        Path data = dir.resolve("data");
        try (CairnServer server = startOn(data)) {
            server.store().createNamespace("ops", "");
            server.knowledge()
                    .ingest(
                            "ops",
                            DocumentParser.parseMarkdown(
                                    "# Rotate the ledger keys\n\nRun keyctl rotate on the vault.\n",
                                    "rotate-keys.md"));
            Path marker = data.resolve(ServerMarker.FILE);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(marker)))
                    .isEqualTo("rw-------");

            Outcome o =
                    run(
                            "retrieve",
                            "rotate ledger keys",
                            "--namespace",
                            "ops",
                            "--data",
                            data.toString());

            assertThat(o.exit()).as(o.err()).isZero();
            assertThat(o.err().lines().filter(l -> l.startsWith("cairn: ")).toList())
                    .containsExactly(
                            "cairn: using the server at http://localhost:"
                                    + server.port()
                                    + " (pid "
                                    + ProcessHandle.current().pid()
                                    + "), which holds "
                                    + data.toAbsolutePath());
            assertThat(o.out()).contains("rotate-keys");
        }
        assertThat(data.resolve(ServerMarker.FILE))
                .as("removed when the server stops")
                .doesNotExist();
    }

    @Test
    void recallSaysWhichPersonTheQueryNamedAndByWhichName() throws Exception {
        Path data = dir.resolve("people");
        try (CairnServer server = startOn(data)) {
            server.store().createNamespace("team", "");
            server.memory()
                    .write(
                            NewMemory.of(
                                    dev.cairn.memory.Scope.of("team", "Faheem R.", ""),
                                    MemoryType.FACT,
                                    "flew to Istanbul in May and to Kyoto in October"),
                            "test");

            Outcome forgot =
                    run(
                            "recall",
                            "Where has Fahim travelled?",
                            "--namespace",
                            "team",
                            "--data",
                            data.toString());
            assertThat(forgot.exit()).isNotZero();
            assertThat(forgot.err()).contains("recalls one user at a time").contains("userId");

            Outcome o =
                    run(
                            "recall",
                            "Where has Fahim travelled?",
                            "--namespace",
                            "team",
                            "--all-users",
                            "--data",
                            data.toString());

            assertThat(o.exit()).as(o.err()).isZero();
            assertThat(o.out())
                    .contains("named: Faheem R. as Fahim (faheem, label, spelling)")
                    .contains("gathers: place (memories telling of it rose)")
                    .contains("Istanbul");
        }
    }

    @Test
    void tuneAndRollbackWithoutServerOptionRunOnTheServerHoldingTheDataDir() throws Exception {
        Path data = dir.resolve("tuned");
        Map<String, String> runbooks =
                Map.of(
                        "rotate-keys", "Run keyctl rotate on the vault to rotate the ledger keys.",
                        "drain-queue", "Pause producers until consumer lag of the queue is zero.",
                        "flush-cache", "Flush the session cache with cachectl purge sessions.",
                        "renew-certs", "Renew the ingress certificates with certbot renew.");
        try (CairnServer server = startOn(data)) {
            server.store().createNamespace("ops", "");
            List<Judgment> judged = new ArrayList<>();
            for (var runbook : runbooks.entrySet()) {
                server.knowledge()
                        .ingest(
                                "ops",
                                DocumentParser.parseMarkdown(
                                        "# " + runbook.getKey() + "\n\n" + runbook.getValue(),
                                        runbook.getKey() + ".md"));
                judged.add(
                        Judgment.draft(
                                runbook.getValue(),
                                new Judgment.Target(Judgment.Kind.DOCUMENT, runbook.getKey()),
                                1,
                                Judgment.Source.OPERATOR));
            }
            server.knowledge().feedback().record("ops", judged);

            Outcome tuned = run("tune", "--namespace", "ops", "--data", data.toString());

            assertThat(tuned.exit()).as(tuned.err()).isZero();
            assertThat(tuned.err()).contains("cairn: using the server at");
            // each query is its document's own text: nothing to win, so the version is rejected;
            // four documents, one held back with its query (unseen), none of the other three; of
            // the three, one is held back again to choose the factor on, where every factor ranks
            // its document first and the smallest is kept
            assertThat(tuned.out().lines().toList().getFirst())
                    .startsWith("adaptation 1 (dense weight x1.0, chosen on 1 query)")
                    .contains("trained on 3 judged queries")
                    .endsWith("-> rejected");
            assertThat(tuned.out())
                    .contains("held back    1: nDCG@10 1.0000 before")
                    .contains("seen docs          0: nDCG@10 0.0000 before")
                    .contains("unseen docs        1: nDCG@10 1.0000 before")
                    // the three training queries' candidates taught a fusion: its weights, named
                    .containsPattern(
                            "\n  learned fusion: lexical-rank \\S+ dense-rank \\S+ cosine \\S+"
                                    + " cosine-gap \\S+ bm25-share \\S+\n");
            assertThat(server.knowledge().adaptations().all("ops"))
                    .singleElement()
                    .extracting(a -> a.version())
                    .isEqualTo(1);

            Outcome rolledBack =
                    run("tune", "--namespace", "ops", "--rollback", "--data", data.toString());

            // the rejected version never became active: nothing to roll back, said in one line;
            // the server's 404 is exit 2, as the same NoSuchElementException is locally
            assertThat(rolledBack.exit()).isEqualTo(Main.EXIT_USAGE);
            assertThat(rolledBack.err().lines().filter(l -> l.contains("no active adaptation")))
                    .containsExactly(
                            "cairn: server answered 404: namespace 'ops' has no active"
                                    + " adaptation");

            // recall's adaptation learns from memory judgments only: the document judgments
            // above teach it nothing, and the server says so
            Outcome memories =
                    run("tune", "--namespace", "ops", "--memories", "--data", data.toString());
            assertThat(memories.exit()).isEqualTo(Main.EXIT_USAGE);
            assertThat(memories.err())
                    .contains(
                            "cairn: server answered 409: namespace 'ops' has 0 judged queries"
                                    + " with a relevant memory");
            assertThat(server.memory().adaptations().all("ops")).isEmpty();
        }
    }

    @Test
    void theSameMistakeExitsWithTheSameCodeWithOrWithoutAServer() throws Exception {
        Path data = dir.resolve("codes");
        try (Store store = Store.embedded(data)) {
            store.createNamespace("ops", "");
        }
        String[] topKZero = {"retrieve", "q", "--namespace", "ops", "--top-k", "0"};
        String[] unknownNamespace = {"retrieve", "q", "--namespace", "nope"};
        List<Outcome> local =
                List.of(
                        run(with(topKZero, "--data", data.toString())),
                        run(with(unknownNamespace, "--data", data.toString())));
        assertThat(local).extracting(Outcome::exit).containsOnly(Main.EXIT_USAGE);

        try (CairnServer server = startOn(data)) {
            String url = "localhost:" + server.port();
            String token = "local-cli-test-admin-token-0123456789";
            // through the server that holds the data dir, and named with --server
            List<Outcome> remote =
                    List.of(
                            run(with(topKZero, "--data", data.toString())),
                            run(with(unknownNamespace, "--data", data.toString())),
                            run(with(topKZero, "--server", url, "--token", token)),
                            run(with(unknownNamespace, "--server", url, "--token", token)));
            assertThat(remote)
                    .as("a 4xx answer is the user's mistake: exit 2 as without a server")
                    .allSatisfy(o -> assertThat(o.exit()).as(o.err()).isEqualTo(Main.EXIT_USAGE))
                    .allSatisfy(o -> assertThat(o.err()).contains("cairn: server answered 4"));
            assertThat(remote.get(1).err()).contains("server answered 404");
        }

        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Outcome refused =
                run(with(topKZero, "--server", "localhost:" + closedPort, "--token", "t"));
        assertThat(refused.exit())
                .as("no server to answer is a failure")
                .isEqualTo(Main.EXIT_FAILURE);
        assertThat(refused.err()).contains("cairn: failed: cannot reach localhost:" + closedPort);
    }

    @Test
    void aServerFailureIsExit1AndARejectedRequestExit2() {
        assertThat(RemoteOptions.answered(400, "bad")).isInstanceOf(IllegalArgumentException.class);
        assertThat(RemoteOptions.answered(404, "no")).isInstanceOf(IllegalArgumentException.class);
        assertThat(RemoteOptions.answered(422, "no")).isInstanceOf(IllegalArgumentException.class);
        assertThat(RemoteOptions.answered(500, "oops"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("server answered 500: oops");
        assertThat(RemoteOptions.answered(503, "busy")).isInstanceOf(IllegalStateException.class);
    }

    private static String[] with(String[] args, String... more) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void aHeldDataDirWhoseServerDoesNotAnswerIsOneLineSuggestingServer() throws Exception {
        Path data = dir.resolve("held");
        try (Store store = Store.embedded(data)) {
            store.createNamespace("ops", "");
        }
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        // a live process (this one) that does not answer: a server stuck or still starting
        long pid = ProcessHandle.current().pid();
        new ServerMarker(pid, URI.create("http://localhost:" + closedPort), "secret-token")
                .write(data);
        Path lock = data.resolve("lucene/documents/write.lock");
        Files.createDirectories(lock.getParent());
        try (FileChannel channel =
                        FileChannel.open(
                                lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock held = channel.lock()) {
            Outcome o = run("retrieve", "how?", "--namespace", "ops", "--data", data.toString());
            assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
            assertThat(o.err().strip().lines().toList())
                    .singleElement()
                    .asString()
                    .contains("held by a Cairn server (pid " + pid + ") that does not answer at")
                    .contains("localhost:" + closedPort)
                    .contains("--server URL --token TOKEN");
            assertThat(held.isValid()).isTrue();
        }
    }

    @Test
    void forgetWithoutServerOptionRunsOnTheServerHoldingTheDataDir() throws Exception {
        Path data = dir.resolve("forget");
        try (CairnServer server = startOn(data)) {
            server.store().createNamespace("ops", "");
            String carols =
                    server.memory()
                            .write(
                                    NewMemory.of(
                                            dev.cairn.memory.Scope.of("ops", "carol", ""),
                                            MemoryType.FACT,
                                            "Carol parks in bay 12"),
                                    "test")
                            .memory()
                            .id();
            String daves =
                    server.memory()
                            .write(
                                    NewMemory.of(
                                            dev.cairn.memory.Scope.of("ops", "dave", ""),
                                            MemoryType.FACT,
                                            "Dave parks in bay 14"),
                                    "test")
                            .memory()
                            .id();

            Outcome forgot =
                    run(
                            "forget",
                            "--namespace",
                            "ops",
                            "--user",
                            "carol",
                            "--data",
                            data.toString());

            assertThat(forgot.exit()).as(forgot.err()).isZero();
            assertThat(forgot.err()).contains("cairn: using the server at");
            assertThat(forgot.out())
                    .startsWith("forgot user carol in ops: ")
                    .contains("1 memories");
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> server.memory().get("ops", carols))
                    .isInstanceOf(java.util.NoSuchElementException.class);
            assertThat(server.memory().get("ops", daves).content())
                    .isEqualTo("Dave parks in bay 14");
            assertThat(server.store().forgetRecords("ops"))
                    .singleElement()
                    .satisfies(r -> assertThat(r.userId()).isEqualTo("carol"));

            Outcome blank =
                    run("forget", "--namespace", "ops", "--user", " ", "--data", data.toString());

            assertThat(blank.exit()).isEqualTo(Main.EXIT_USAGE);
            assertThat(blank.err()).contains("--user must not be blank");
            assertThat(server.store().forgetRecords("ops")).hasSize(1);
        }
    }

    @Test
    void recallAndForgetWithNoServerRunInTheDataDirAndForgetPurgesItsIndex() throws Exception {
        Path data = dir.resolve("forget-locally");
        String word = "zqlocallyforgottenqx";
        try (CairnServer server = startOn(data)) {
            server.store().createNamespace("ops", "");
            for (String user : List.of("erin", "frank")) {
                server.memory()
                        .write(
                                NewMemory.of(
                                        dev.cairn.memory.Scope.of("ops", user, ""),
                                        MemoryType.FACT,
                                        user + " said " + (user.equals("erin") ? word : "nothing")),
                                "test");
            }
        }
        assertThat(
                        dev.cairn.server.StoredBytes.segmentsWithTerm(
                                data.resolve("lucene/memories/ops"), word))
                .isNotEmpty();

        Outcome recalled =
                run(
                        "recall",
                        word,
                        "--namespace",
                        "ops",
                        "--user",
                        "erin",
                        "--data",
                        data.toString());
        Outcome forgot =
                run("forget", "--namespace", "ops", "--user", "erin", "--data", data.toString());

        assertThat(recalled.exit()).as(recalled.err()).isZero();
        assertThat(recalled.err()).doesNotContain("using the server");
        assertThat(recalled.out()).contains("erin said " + word);

        assertThat(forgot.exit()).as(forgot.err()).isZero();
        assertThat(forgot.err()).doesNotContain("using the server");
        assertThat(forgot.out()).startsWith("forgot user erin in ops: ").contains("1 memories");
        assertThat(dev.cairn.server.StoredBytes.filesHolding(data, word)).isEmpty();
        try (Store store = Store.embedded(data)) {
            assertThat(store.forgetRecords("ops"))
                    .singleElement()
                    .satisfies(r -> assertThat(r.requestedBy()).startsWith("cli:"));
        }
    }
}
