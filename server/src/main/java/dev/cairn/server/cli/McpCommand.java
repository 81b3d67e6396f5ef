package dev.cairn.server.cli;

import dev.cairn.server.ServerComponents;
import dev.cairn.server.ServerSettings;
import dev.cairn.server.api.ToolRoutes;
import dev.cairn.server.auth.ApiToken;
import dev.cairn.server.auth.Role;
import dev.cairn.server.mcp.CairnMcp;
import io.helidon.config.Config;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cairn mcp}: an MCP server on stdin/stdout for desktop clients, either over the local data
 * dir (the same tools, resources and prompt as {@code /mcp/{ns}}) or forwarding to a running
 * server's {@code /mcp/{ns}} endpoint. Stdout carries protocol messages only: anything else that
 * writes to it (logs, a library's banner) would corrupt the client's JSON-RPC stream.
 */
@Command(
        name = "mcp",
        description = "Serve MCP over stdio, on the local data dir or forwarding to a server.",
        mixinStandardHelpOptions = true)
final class McpCommand implements Callable<Integer> {

    @Option(
            names = "--namespace",
            required = true,
            paramLabel = "NS",
            description = "namespace the tools work in (required)")
    String namespace;

    @ArgGroup(exclusive = true)
    Target target = new Target();

    /** Where the tools run: a data dir (default) or a server; not both. */
    static final class Target {
        @Option(
                names = "--data",
                paramLabel = "DIR",
                description = "data dir (or CAIRN_DATA_DIR); default: ./cairn-data")
        Path dataDir;

        @Option(
                names = "--server",
                paramLabel = "URL",
                description =
                        "a running Cairn server (or CAIRN_SERVER), e.g. localhost:8080; default:"
                                + " none, the data dir")
        String server;
    }

    @Option(
            names = "--db-url",
            paramLabel = "JDBC_URL",
            description =
                    "PostgreSQL JDBC URL (or CAIRN_DB_URL), without --server; default: none, the"
                            + " embedded store in the data dir")
    String dbUrl;

    @Option(
            names = "--token",
            paramLabel = "TOKEN",
            description = "bearer token for --server (or CAIRN_TOKEN); default: none")
    String token;

    @Override
    public Integer call() throws Exception {
        // The protocol keeps the real stdout; everything else that prints goes to stderr.
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
        System.setOut(System.err);
        logToStderr();
        String server =
                target.server != null
                        ? target.server
                        : System.getenv().getOrDefault("CAIRN_SERVER", "");
        if (target.dataDir == null && !server.isBlank()) {
            String secret = token != null ? token : System.getenv().getOrDefault("CAIRN_TOKEN", "");
            if (secret.isBlank()) {
                throw new IllegalArgumentException("--server needs --token or CAIRN_TOKEN");
            }
            new McpProxy(endpoint(server, namespace), secret)
                    .run(new FileInputStream(FileDescriptor.in), protocol);
            return 0;
        }
        return serveLocal(protocol);
    }

    private int serveLocal(OutputStream protocol) throws InterruptedException {
        ServerSettings settings =
                Settings.resolve(Config.create().get("cairn"), target.dataDir, null, dbUrl);
        try (ServerComponents components = ServerComponents.open(settings)) {
            if (components.store().namespace(namespace).isEmpty()) {
                throw new IllegalArgumentException(
                        "namespace '" + namespace + "' does not exist in the data dir");
            }
            CountDownLatch closed = new CountDownLatch(1);
            InputStream in =
                    new FilterInputStream(new FileInputStream(FileDescriptor.in)) {
                        // The client ends the session by closing our stdin: stop then.
                        @Override
                        public int read(byte[] b, int off, int len) throws IOException {
                            int n = super.read(b, off, len);
                            if (n < 0) {
                                closed.countDown();
                            }
                            return n;
                        }

                        @Override
                        public int read() throws IOException {
                            int c = super.read();
                            if (c < 0) {
                                closed.countDown();
                            }
                            return c;
                        }
                    };
            var transport = new StdioServerTransportProvider(CairnMcp.jsonMapper(), in, protocol);
            ToolRoutes tools = ToolRoutes.all(components.governance(), settings.maxBodyBytes());
            McpSyncServer server =
                    new CairnMcp(tools, components)
                            .serveLocal(transport, namespace, localToken(namespace));
            closed.await();
            server.closeGracefully();
            return 0;
        }
    }

    /**
     * Whoever can read the data dir owns it: the local caller holds every role on the namespace.
     * The token is never registered, so its secret is thrown away.
     */
    static ApiToken localToken(String namespace) {
        return new ApiToken(
                "local",
                ApiToken.hash(ApiToken.newSecret()),
                EnumSet.allOf(Role.class),
                List.of(namespace),
                Instant.now());
    }

    /** The server's MCP endpoint; a URL without a scheme means plain HTTP. */
    static URI endpoint(String server, String namespace) {
        return URI.create(RemoteOptions.baseUri(server) + "/mcp/" + namespace);
    }

    /** Replaces every JUL handler (Helidon's writes to stdout) by one on stderr. */
    private static void logToStderr() {
        Logger root = LogManager.getLogManager().getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        ConsoleHandler stderr = new ConsoleHandler();
        stderr.setLevel(java.util.logging.Level.ALL);
        try {
            stderr.setEncoding(StandardCharsets.UTF_8.name());
        } catch (IOException e) {
            // keep the platform encoding
        }
        root.addHandler(stderr);
    }
}
