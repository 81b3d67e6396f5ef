package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.server.ServerMarker;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./cairn} launcher as a user runs it, in a subprocess: a copy of the launcher in a
 * directory of its own, whose {@code server/target/cairn.jar} is a manifest-only jar naming this
 * build's classes (so the launcher finds it up to date and builds nothing). The time bounds are
 * generous behaviour bounds (what was slow loaded PyTorch first: 6-12 s before), not performance
 * targets.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LauncherTest {

    /** Far above a JVM start that prints help, far below one that loads the model first. */
    private static final Duration QUICK = Duration.ofSeconds(15);

    private static final Pattern TEST_ONLY =
            Pattern.compile(
                    "test-classes|-tests\\.jar|junit|opentest4j|apiguardian|assertj|testcontainers"
                            + "|/testing/|surefire|byte-buddy|docker-java|duct-tape|jna");

    private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");

    private Path dir;
    private Path launcher;
    private Path target;

    @BeforeAll
    void copyTheLauncher(@TempDir Path temp) throws IOException {
        dir = temp;
        Path repo = Path.of("..").toAbsolutePath().normalize();
        Path root = dir.resolve("checkout");
        Files.createDirectories(root.resolve("scripts"));
        target = Files.createDirectories(root.resolve("server/target"));
        launcher = root.resolve("cairn");
        Files.copy(repo.resolve("cairn"), launcher, StandardCopyOption.COPY_ATTRIBUTES);
        for (String script :
                List.of("scripts/find-jdk.sh", "scripts/run-jar.sh", "scripts/TestSummary.java")) {
            Files.copy(
                    repo.resolve(script), root.resolve(script), StandardCopyOption.COPY_ATTRIBUTES);
        }
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.put(Attributes.Name.MAIN_CLASS, Main.class.getName());
        List<String> classPath = new ArrayList<>();
        for (String entry :
                System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            // what the real jar names: the runtime classes, not the tests and their libraries
            if (!TEST_ONLY.matcher(entry).find()) {
                classPath.add(Path.of(entry).toAbsolutePath().toUri().toString());
            }
        }
        main.put(Attributes.Name.CLASS_PATH, String.join(" ", classPath));
        try (JarOutputStream jar =
                new JarOutputStream(Files.newOutputStream(target.resolve("cairn.jar")), manifest)) {
            // the manifest is the whole jar
        }
    }

    @Test
    void helpIsAnsweredAtOnceWithoutLogLinesOrPyTorch() {
        for (List<String> args :
                List.of(
                        List.of("--help"),
                        List.of("serve", "--help"),
                        List.of("ingest", "--help"),
                        List.of("retrieve", "-h"),
                        List.of("--version"))) {
            Run run = cairn(Map.of(), args.toArray(String[]::new));
            assertThat(run.exit()).as("%s: %s", args, run.err()).isZero();
            assertThat(run.err()).as("%s prints nothing on stderr", args).isEmpty();
            assertThat(run.out())
                    .as("%s", args)
                    .doesNotContain("INFO", "WARNING", "PyTorch", "incubator");
            assertThat(run.took()).as("%s", args).isLessThan(QUICK);
        }
        assertThat(cairn(Map.of(), "serve", "--help").out())
                .startsWith("Usage: cairn serve")
                .contains("CAIRN_PORT", "CAIRN_DATA_DIR", "default: 8080");
        assertThat(cairn(Map.of(), "--help").out())
                .contains("  test      Run the whole test suite");
    }

    @Test
    void aMistypedCommandOrOptionIsOneLineAndExit2AndLeavesNoArchive() throws IOException {
        Run command = cairn(Map.of("CAIRN_CDS", "1"), "retreive", "x");
        assertThat(command.exit()).isEqualTo(2);
        assertThat(command.err().lines())
                .singleElement()
                .asString()
                .startsWith("cairn: unknown command 'retreive'; did you mean 'retrieve'?");
        assertThat(command.took()).isLessThan(QUICK);

        Run option = cairn(Map.of(), "serve", "--prot", "9000");
        assertThat(option.exit()).isEqualTo(2);
        assertThat(option.err())
                .contains("cairn: unknown option '--prot'; did you mean '--port'?")
                .doesNotContain("INFO", "PyTorch");
        assertThat(option.took()).isLessThan(QUICK);

        cairn(Map.of("CAIRN_CDS", "1"), "--help");
        cairn(Map.of("CAIRN_CDS", "1"), "serve", "--help");
        assertThat(archives()).as("no archive for a typo or for help").isEmpty();
    }

    @Test
    void anArchiveOfAWordThatIsNoCommandIsDeleted() throws IOException {
        Path typo = Files.writeString(target.resolve("cairn-retreive-jdk25.jsa"), "left over");
        Path help = Files.writeString(target.resolve("cairn-help-jdk25.jsa"), "left over");
        assertThat(cairn(Map.of(), "--version").exit()).isZero();
        assertThat(typo).doesNotExist();
        assertThat(help).doesNotExist();
    }

    @Test
    void aBusyPortIsOneLineAndExit2BeforeAnythingLoads() throws IOException {
        try (ServerSocket busy = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = busy.getLocalPort();
            Path data = dir.resolve("busy-port-data");
            String expected =
                    "cairn: port "
                            + port
                            + " is in use; pass --port N or set CAIRN_PORT (0 picks a free port)";

            Run byOption = cairn(Map.of(), "serve", "--data", data.toString(), "--port", "" + port);
            assertThat(byOption.exit()).as(byOption.err()).isEqualTo(2);
            assertThat(byOption.err().lines()).containsExactly(expected);
            assertThat(byOption.out()).isEmpty();
            assertThat(byOption.took()).isLessThan(QUICK);

            Run byEnvironment =
                    cairn(Map.of("CAIRN_PORT", "" + port), "serve", "--data", data.toString());
            assertThat(byEnvironment.exit()).isEqualTo(2);
            assertThat(byEnvironment.err().lines()).containsExactly(expected);
            assertThat(data).as("nothing was opened").doesNotExist();
        }
    }

    @Test
    void aMarkerLeftByAServerThatIsGoneHoldsNothing() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        assertThat(markerOf(gone.pid())).as("its pid is gone").isEmpty();
        // after a reboot the pid may be another program's: not a JVM, so not a server
        Process other = new ProcessBuilder("sleep", "30").start();
        try {
            assertThat(markerOf(other.pid())).as("its pid is a sleep").isEmpty();
        } finally {
            other.destroy();
        }
        assertThat(markerOf(ProcessHandle.current().pid())).as("a live JVM").isPresent();

        Path data = Files.createDirectories(dir.resolve("stale-marker-data"));
        new ServerMarker(gone.pid(), URI.create("http://localhost:1"), "t").write(data);
        try (ServerSocket busy = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Run run =
                    cairn(
                            Map.of(),
                            "serve",
                            "--data",
                            data.toString(),
                            "--port",
                            "" + busy.getLocalPort());
            // past the holder check: the next check, the port, is what stops it
            assertThat(run.err()).doesNotContain("already served").contains("is in use");
            assertThat(run.exit()).isEqualTo(2);
        }
    }

    /**
     * One real server started through the launcher: a second {@code serve} on its data dir or its
     * port fails at once with one line; its start logs one schema line; sources changed meanwhile
     * do not rebuild the jar under it; SIGTERM stops it with "stopping" and "stopped in N ms".
     */
    @Test
    void aSecondServeOnAHeldDataDirOrPortFailsAtOnceAndTheFirstStopsWithTwoLines()
            throws Exception {
        Path data = dir.resolve("served-data");
        ProcessBuilder builder =
                builder(Map.of(), "serve", "--data", data.toString(), "--port", "0")
                        .redirectErrorStream(true);
        Process server = builder.start();
        StringBuilder output = new StringBuilder();
        CompletableFuture<URI> url = new CompletableFuture<>();
        Thread follower =
                Thread.ofVirtual().start(() -> follow(server.getInputStream(), output, url));
        try {
            URI base = url.get(180, TimeUnit.SECONDS);
            String started = snapshot(output);
            assertThat(started)
                    .containsPattern("schema at V\\d+ \\(applied \\d+ migrations in \\d+ ms\\)")
                    .doesNotContain("applied schema migration");

            Run sameDir = cairn(Map.of(), "serve", "--data", data.toString(), "--port", "0");
            assertThat(sameDir.exit()).as(sameDir.err()).isEqualTo(2);
            assertThat(sameDir.err().lines())
                    .containsExactly(
                            "cairn: data dir "
                                    + data.toAbsolutePath()
                                    + " is already served by pid "
                                    + server.pid()
                                    + " at "
                                    + base
                                    + "; stop that server or pass --data DIR");
            assertThat(sameDir.took()).isLessThan(QUICK);

            Run samePort =
                    cairn(
                            Map.of(),
                            "serve",
                            "--data",
                            dir.resolve("other-data").toString(),
                            "--port",
                            "" + base.getPort());
            assertThat(samePort.exit()).isEqualTo(2);
            assertThat(samePort.err()).startsWith("cairn: port " + base.getPort() + " is in use");
            assertThat(samePort.took()).isLessThan(QUICK);

            // sources changed while it runs: the launcher does not rebuild the jar under it
            Path changed = dir.resolve("checkout/newer/src/main/Changed.java");
            Files.createDirectories(changed.getParent());
            Files.writeString(changed, "class Changed {}");
            try {
                Run help = cairn(Map.of(), "--help");
                assertThat(help.exit()).as(help.err()).isZero();
                assertThat(help.err().strip())
                        .isEqualTo(
                                "cairn: sources changed, but pid "
                                        + server.pid()
                                        + " runs from the built jar; not rebuilding under it"
                                        + " (stop it to rebuild)");
                assertThat(help.out()).contains("Usage: cairn");
            } finally {
                Files.delete(changed);
            }

            long stopStart = System.nanoTime();
            // SIGTERM; Process.destroy() would also close the pipes and lose what follows
            server.toHandle().destroy();
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
            Duration stopping = Duration.ofNanos(System.nanoTime() - stopStart);
            assertThat(follower.join(Duration.ofSeconds(30))).as("output read to its end").isTrue();
            String all = snapshot(output);
            assertThat(all).contains("INFO dev.cairn.server.CairnServer: stopping\n");
            assertThat(all).containsPattern("CairnServer: stopped in \\d+ ms \\(web server");
            assertThat(stopping).as(all).isLessThan(QUICK);
            assertThat(data.resolve(ServerMarker.FILE)).doesNotExist();
        } finally {
            server.destroyForcibly();
            server.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * {@code ./cairn test} runs Maven's {@code verify} and then says what Maven's log does not: how
     * long the run took, its slowest classes and each skipped test's reason, from the reports this
     * run wrote (an older report is not counted); Maven's exit status is the launcher's. Maven here
     * is the checkout's {@code mvnw}, replaced by a script that writes two reports as Surefire does
     * and fails.
     */
    @Test
    void theTestCommandEndsWithItsTimeSlowestClassesAndEverySkipsReason() throws Exception {
        Path root = launcher.getParent();
        Path reports = Files.createDirectories(root.resolve("memory/target/surefire-reports"));
        Path stale = reports.resolve("TEST-dev.cairn.memory.OldTest.xml");
        Files.writeString(
                stale, "<testsuite name=\"dev.cairn.memory.OldTest\" time=\"99\" tests=\"5\"/>");
        Files.setLastModifiedTime(
                stale,
                java.nio.file.attribute.FileTime.fromMillis(
                        System.currentTimeMillis() - 3_600_000));
        Path mvnw = root.resolve("mvnw");
        Files.writeString(
                mvnw,
                """
                #!/usr/bin/env bash
                echo "maven: $*"
                d="$(dirname "$0")/memory/target/surefire-reports"
                cat > "$d/TEST-dev.cairn.memory.SlowTest.xml" <<'XML'
                <testsuite name="dev.cairn.memory.SlowTest" time="12.5" tests="3">
                  <testcase name="a" classname="dev.cairn.memory.SlowTest" time="12"/>
                  <testcase name="b" classname="dev.cairn.memory.SlowTest" time="0">
                    <skipped message="on demand: pass -Dx=DIR"/>
                  </testcase>
                  <testcase name="c" classname="dev.cairn.memory.SlowTest" time="0">
                    <skipped message="System property [x] does not exist ==> on demand: pass -Dx=DIR"/>
                  </testcase>
                </testsuite>
                XML
                cat > "$d/TEST-dev.cairn.memory.QuickTest.xml" <<'XML'
                <testsuite name="dev.cairn.memory.QuickTest" time="0.4" tests="2">
                  <testcase name="d" classname="dev.cairn.memory.QuickTest" time="0">
                    <skipped type="org.opentest4j.TestAbortedException"><![CDATA[org.opentest4j.TestAbortedException: Assumption failed: skipped: needs AMX
                	at org.junit.jupiter.api.Assumptions.throwAssumptionFailed(Assumptions.java:340)
                ]]></skipped>
                  </testcase>
                </testsuite>
                XML
                printf '<testsuite name="dev.cairn.memory.Stopp' > "$d/TEST-dev.cairn.memory.StoppedTest.xml"
                exit 1
                """);
        assertThat(mvnw.toFile().setExecutable(true)).isTrue();
        Run run = cairn(Map.of(), "test", "-pl", "memory");
        assertThat(run.exit()).as(run.err()).isEqualTo(1);
        assertThat(run.out())
                .contains("maven: -B -f " + root.resolve("pom.xml") + " verify -pl memory")
                .containsPattern("cairn test: 5 tests in 2 classes, 0 min \\d\\d s")
                .contains("slowest classes: SlowTest 13 s, QuickTest 0 s")
                .contains("  1 report(s) could not be read\n")
                .contains(
                        "  skipped 3:\n"
                                + "    1 in QuickTest: needs AMX\n"
                                + "    2 in SlowTest: on demand: pass -Dx=DIR\n")
                .doesNotContain("OldTest", "at org.junit");
    }

    /** The holder {@link ServerMarker#holder} finds for a marker naming {@code pid}. */
    private java.util.Optional<ServerMarker> markerOf(long pid) throws IOException {
        Path data = Files.createTempDirectory(dir, "marker");
        new ServerMarker(pid, URI.create("http://localhost:1"), "t").write(data);
        return ServerMarker.holder(data);
    }

    private record Run(int exit, String out, String err, Duration took) {}

    private Run cairn(Map<String, String> environment, String... args) {
        try {
            long start = System.nanoTime();
            Process process = builder(environment, args).start();
            CompletableFuture<String> err =
                    CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
            String out = read(process.getInputStream());
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("exits").isTrue();
            return new Run(
                    process.exitValue(),
                    out,
                    err.join(),
                    Duration.ofNanos(System.nanoTime() - start));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private ProcessBuilder builder(Map<String, String> environment, String... args) {
        List<String> command = new ArrayList<>(List.of("bash", launcher.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(k -> k.startsWith("CAIRN_"));
        // the classes are directories here, which class data sharing does not archive
        env.put("CAIRN_CDS", "0");
        env.putAll(environment);
        return builder;
    }

    private List<Path> archives() throws IOException {
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jsa")).toList();
        }
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void follow(InputStream in, StringBuilder output, CompletableFuture<URI> url) {
        try (var lines =
                new java.io.BufferedReader(
                        new java.io.InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                synchronized (output) {
                    output.append(line).append('\n');
                }
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    url.complete(URI.create(m.group(1)));
                }
            }
            url.completeExceptionally(new IllegalStateException("server exited:\n" + output));
        } catch (IOException e) {
            url.completeExceptionally(e);
        }
    }

    private static String snapshot(StringBuilder output) {
        synchronized (output) {
            return output.toString();
        }
    }
}
