package dev.cairn.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code cairn serve} in a child JVM on this build's classes and libraries, with the JVM options
 * the launcher gives it: a server a test can end with SIGKILL (no shutdown hook, no goodbye to its
 * clients) without ending itself. Its output goes to a log file, read for the banner's address. Not
 * thread-safe.
 */
final class ServerProcess implements AutoCloseable {

    /** Three starts at once on two loaded cores, each loading the encoder: generous. */
    static final Duration START_WITHIN = Duration.ofMinutes(3);

    private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");

    private final Process process;
    private final Path log;
    private URI url;

    private ServerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code serve --port 0 --data dataDir} (plus {@code args}) with {@code adminToken} and
     * the JVM options {@code jvmOptions} (e.g. {@code -Dcairn.x=y} settings), its output going to
     * {@code log}; {@link #awaitReady()} waits for it. The environment's {@code CAIRN_DB_URL} and
     * {@code CAIRN_DATA_DIR} are not passed on.
     */
    static ServerProcess start(
            Path dataDir, Path log, String adminToken, List<String> jvmOptions, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(
                List.of(
                        "-Xmx1g",
                        "-Dai.djl.offline=true",
                        "--enable-native-access=ALL-UNNAMED",
                        "--add-modules",
                        "jdk.incubator.vector"));
        command.addAll(jvmOptions);
        command.addAll(
                List.of(
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.cairn.server.cli.Main",
                        "serve",
                        "--port",
                        "0",
                        "--data",
                        dataDir.toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("CAIRN_ADMIN_TOKEN", adminToken);
        builder.environment().remove("CAIRN_DB_URL");
        builder.environment().remove("CAIRN_DATA_DIR");
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        try {
            return new ServerProcess(builder.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits for the banner's address; fails with the log when the server exits or is too slow. */
    ServerProcess awaitReady() throws InterruptedException {
        long deadline = System.nanoTime() + START_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            Matcher m = LISTENING.matcher(output());
            if (m.find()) {
                url = URI.create(m.group(1));
                return this;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "server exited with " + process.exitValue() + ":\n" + output());
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(
                "server not listening after " + START_WITHIN + ":\n" + output());
    }

    URI url() {
        return url;
    }

    int port() {
        return url.getPort();
    }

    /** Everything the server wrote so far. */
    String output() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL: the server stops between two instructions, whatever it was doing. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    boolean alive() {
        return process.isAlive();
    }

    /** SIGTERM (the server's orderly stop), then SIGKILL if it has not ended within 30 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
