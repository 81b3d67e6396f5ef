package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's nginx as a child process ({@code nginx -p DIR -c DIR/nginx.conf}, in the foreground, its
 * logs and temporary files in DIR) on the reference configuration {@code deploy/nginx/cairn.conf}
 * itself, with its upstream's servers and its {@code listen} pointed at this machine's loopback:
 * what the tests check is the file operators copy. Not thread-safe.
 */
final class NginxProcess implements AutoCloseable {

    static final Path NGINX = Path.of("/usr/sbin/nginx");

    /** The reference configuration, from the server module's directory (where tests run). */
    static final Path REFERENCE =
            Path.of("..", "deploy", "nginx", "cairn.conf").toAbsolutePath().normalize();

    /** Set to 1 (CI does) to fail rather than skip when nginx is missing. */
    static final String REQUIRE_ENV = "CAIRN_REQUIRE_NGINX";

    private static final Pattern UPSTREAM_SERVER =
            Pattern.compile("(?m)^(\\s*server\\s+)\\S+:\\d+((?:\\s[^;\\n]*)?;)");
    private static final Pattern LISTEN = Pattern.compile("(?m)^(\\s*listen\\s+)\\S+;");

    private final Process process;
    private final Path dir;
    private final int port;

    private NginxProcess(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    static boolean present() {
        return Files.isExecutable(NGINX);
    }

    /** Skips the calling test without nginx, or fails it when {@value #REQUIRE_ENV} is set. */
    static void assumePresent() {
        String why = "needs " + NGINX + " (scripts/setup-nginx.sh installs Debian's nginx)";
        if (System.getenv(REQUIRE_ENV) != null) {
            assertThat(present()).as(why).isTrue();
        }
        Assumptions.assumeTrue(present(), why);
    }

    /**
     * The reference configuration with its upstream's {@code server} lines pointed at {@code
     * 127.0.0.1:PORT} of each of {@code ports} in order (the lines past them removed) and its
     * {@code listen} at {@code 127.0.0.1:listenPort}; fails when the file does not have the lines
     * this relies on, so a reshaped reference cannot silently go untested.
     */
    static String render(String reference, List<Integer> ports, int listenPort) {
        Matcher servers = UPSTREAM_SERVER.matcher(reference);
        StringBuilder out = new StringBuilder();
        int n = 0;
        while (servers.find()) {
            String line =
                    n < ports.size()
                            ? servers.group(1) + "127.0.0.1:" + ports.get(n) + servers.group(2)
                            : "";
            servers.appendReplacement(out, Matcher.quoteReplacement(line));
            n++;
        }
        servers.appendTail(out);
        if (n < ports.size()) {
            throw new IllegalStateException(
                    REFERENCE + " names " + n + " upstream servers, " + ports.size() + " needed");
        }
        Matcher listen = LISTEN.matcher(out);
        if (!listen.find()) {
            throw new IllegalStateException(REFERENCE + " has no listen line");
        }
        String rendered =
                listen.replaceFirst(
                        Matcher.quoteReplacement(listen.group(1))
                                + "127.0.0.1:"
                                + listenPort
                                + ";");
        if (LISTEN.matcher(rendered).results().count() != 1) {
            throw new IllegalStateException(REFERENCE + " must have exactly one listen line");
        }
        return rendered;
    }

    /**
     * Starts nginx on a free loopback port in front of {@code ports}, and waits until it accepts
     * connections. Its rendered files, logs and temporary files are in a directory of its own,
     * deleted by {@link #close()}: not under a test's (owner-only) temporary directory, since
     * nginx's workers, started as root, drop to nobody and must reach their temporary files.
     */
    static NginxProcess start(List<Integer> ports) throws Exception {
        Path dir =
                Files.createTempDirectory(
                        "cairn-nginx-",
                        PosixFilePermissions.asFileAttribute(
                                PosixFilePermissions.fromString("rwx------")));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        int port = freePort();
        Files.writeString(
                dir.resolve("cairn.conf"),
                render(Files.readString(REFERENCE, StandardCharsets.UTF_8), ports, port));
        Files.writeString(
                dir.resolve("nginx.conf"),
                String.join(
                        "\n",
                        "daemon off;",
                        "worker_processes 1;",
                        "pid " + dir.resolve("nginx.pid") + ";",
                        "error_log " + dir.resolve("error.log") + " warn;",
                        "events { worker_connections 1024; }",
                        "http {",
                        "    log_format upstream '$request_method $uri $status"
                                + " upstream=$upstream_addr upstream_status=$upstream_status"
                                + " time=$request_time';",
                        "    access_log " + dir.resolve("access.log") + " upstream;",
                        "    client_body_temp_path " + dir.resolve("client_body") + ";",
                        "    proxy_temp_path " + dir.resolve("proxy") + ";",
                        "    fastcgi_temp_path " + dir.resolve("fastcgi") + ";",
                        "    uwsgi_temp_path " + dir.resolve("uwsgi") + ";",
                        "    scgi_temp_path " + dir.resolve("scgi") + ";",
                        "    include " + dir.resolve("cairn.conf") + ";",
                        "}",
                        ""));
        Process process =
                new ProcessBuilder(
                                NGINX.toString(),
                                "-p",
                                dir.toString(),
                                "-e",
                                dir.resolve("error.log").toString(),
                                "-c",
                                dir.resolve("nginx.conf").toString())
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("nginx.out").toFile())
                        .start();
        NginxProcess nginx = new NginxProcess(process, dir, port);
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!nginx.accepts()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                nginx.close();
                throw new IllegalStateException("nginx did not start:\n" + nginx.errorLog());
            }
            Thread.sleep(50);
        }
        return nginx;
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** nginx's error log: refused upstream connections, servers marked down, retries. */
    String errorLog() {
        return read("error.log") + read("nginx.out");
    }

    private boolean accepts() {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private String read(String file) {
        try {
            Path path = dir.resolve(file);
            return Files.exists(path) ? Files.readString(path, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    /**
     * SIGTERM (nginx's fast shutdown; SIGKILL if it has not ended within 10 s), then its directory
     * goes.
     */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
