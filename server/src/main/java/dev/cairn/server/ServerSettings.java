package dev.cairn.server;

import dev.cairn.retrieval.Grounding;
import dev.cairn.retrieval.RetrievalConfig;
import dev.cairn.retrieval.dense.DenseOptions;
import dev.cairn.retrieval.ingest.ChunkingConfig;
import dev.cairn.retrieval.lexical.LexicalConfig;
import dev.cairn.server.api.ArkSettings;
import dev.cairn.server.auth.ApiToken;
import dev.cairn.server.auth.Role;
import io.helidon.config.Config;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything the server needs to start. Built from the {@code cairn:} node of {@code
 * application.yaml} (environment overrides applied) and then from command-line options.
 *
 * @param host interface to bind
 * @param port TCP port; 0 picks a free one
 * @param dataDir embedded database, Lucene indexes, admin token hash
 * @param dbUrl PostgreSQL JDBC URL; blank for the embedded store
 * @param maxBodyBytes the largest request body accepted (413 past it)
 * @param shutdownGrace how long in-flight requests may take to finish on stop
 * @param adminToken {@code CAIRN_ADMIN_TOKEN}, blank when unset
 * @param tokens fixed tokens from configuration (hashes only)
 * @param retrieval chunking, BM25, dense search, deadlines and limits of the knowledge base
 * @param listener header and idle timeouts, TLS
 * @param ark long conversations and conversation-create limits of the ARK mount
 */
public record ServerSettings(
        String host,
        int port,
        Path dataDir,
        String dbUrl,
        long maxBodyBytes,
        Duration shutdownGrace,
        String adminToken,
        List<ApiToken> tokens,
        RetrievalConfig retrieval,
        ListenerSettings listener,
        ArkSettings ark) {

    /** Loopback only: opening Cairn to the network is a decision ({@code --host 0.0.0.0}). */
    public static final String DEFAULT_HOST = "127.0.0.1";

    /** Shortest admin token accepted from the environment or configuration. */
    public static final int MIN_ADMIN_TOKEN_CHARS = 32;

    public static final int DEFAULT_PORT = 8080;
    public static final long DEFAULT_MAX_BODY_BYTES = 10L * 1024 * 1024;
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);

    public ServerSettings {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("illegal port: " + port + ", must be in [0, 65535]");
        }
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(dbUrl, "dbUrl");
        if (maxBodyBytes < 1024) {
            throw new IllegalArgumentException(
                    "illegal max-body-bytes: " + maxBodyBytes + ", must be >= 1024");
        }
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        Objects.requireNonNull(adminToken, "adminToken");
        tokens = List.copyOf(tokens);
        Objects.requireNonNull(retrieval, "retrieval");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(ark, "ark");
    }

    /** Defaults for everything: embedded store in {@code dataDir}, port 8080. */
    public static ServerSettings defaults(Path dataDir) {
        return new ServerSettings(
                DEFAULT_HOST,
                DEFAULT_PORT,
                dataDir,
                "",
                DEFAULT_MAX_BODY_BYTES,
                DEFAULT_SHUTDOWN_GRACE,
                "",
                List.of(),
                RetrievalConfig.defaults(),
                ListenerSettings.defaults(),
                ArkSettings.DEFAULTS);
    }

    /** Reads the {@code cairn} config node. */
    public static ServerSettings fromConfig(Config cairn) {
        Config server = cairn.get("server");
        List<ApiToken> tokens =
                cairn.get("auth.tokens").asNodeList().orElse(List.of()).stream()
                        .map(ServerSettings::token)
                        .toList();
        return new ServerSettings(
                server.get("host").asString().orElse(DEFAULT_HOST),
                server.get("port").asInt().orElse(DEFAULT_PORT),
                Path.of(cairn.get("data-dir").asString().orElse("cairn-data")),
                cairn.get("db-url").asString().orElse(""),
                server.get("max-body-bytes").asLong().orElse(DEFAULT_MAX_BODY_BYTES),
                Duration.ofSeconds(
                        server.get("shutdown-grace-seconds")
                                .asLong()
                                .orElse(DEFAULT_SHUTDOWN_GRACE.toSeconds())),
                cairn.get("auth.admin-token").asString().orElse(""),
                tokens,
                retrieval(cairn.get("retrieval")),
                ListenerSettings.fromConfig(server),
                ark(cairn.get("ark")));
    }

    private static ArkSettings ark(Config node) {
        return new ArkSettings(
                node.get("history-messages").asInt().orElse(ArkSettings.DEFAULT_HISTORY_MESSAGES),
                node.get("create-burst").asInt().orElse(ArkSettings.DEFAULT_CREATE_BURST),
                node.get("creates-per-second")
                        .asDouble()
                        .orElse(ArkSettings.DEFAULT_CREATES_PER_SECOND));
    }

    private static RetrievalConfig retrieval(Config node) {
        RetrievalConfig defaults = RetrievalConfig.defaults();
        LexicalConfig lexical =
                defaults.lexical()
                        .withBm25(
                                node.get("bm25.k1").asDouble().orElse(LexicalConfig.DEFAULT_K1),
                                node.get("bm25.b").asDouble().orElse(LexicalConfig.DEFAULT_B));
        ChunkingConfig chunking =
                new ChunkingConfig(
                        node.get("chunk.max-tokens")
                                .asInt()
                                .orElse(ChunkingConfig.DEFAULT_MAX_TOKENS),
                        node.get("chunk.overlap-tokens")
                                .asInt()
                                .orElse(ChunkingConfig.DEFAULT_OVERLAP_TOKENS));
        DenseOptions dense =
                new DenseOptions(
                        DenseOptions.Strategy.AUTO,
                        node.get("dense.ef-search").asInt().orElse(DenseOptions.DEFAULT_EF_SEARCH));
        Duration timeout =
                Duration.ofMillis(
                        node.get("signal-timeout-ms")
                                .asLong()
                                .orElse(RetrievalConfig.DEFAULT_SIGNAL_TIMEOUT.toMillis()));
        return new RetrievalConfig(
                chunking,
                lexical,
                dense,
                timeout,
                timeout,
                timeout,
                node.get("max-document-bytes")
                        .asLong()
                        .orElse(RetrievalConfig.DEFAULT_MAX_DOCUMENT_BYTES),
                node.get("trace-retention").asInt().orElse(RetrievalConfig.DEFAULT_TRACE_RETENTION),
                Grounding.Thresholds.DEFAULTS);
    }

    private static ApiToken token(Config node) {
        Set<Role> roles = new HashSet<>();
        node.get("roles")
                .asList(String.class)
                .orElse(List.of())
                .forEach(r -> roles.add(Role.parse(r)));
        return new ApiToken(
                node.get("name")
                        .asString()
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "cairn.auth.tokens: every token needs a name")),
                node.get("sha256").asString().orElse(""),
                roles,
                node.get("namespaces").asList(String.class).orElse(List.of()),
                java.time.Instant.EPOCH);
    }

    public ServerSettings withHost(String newHost) {
        return new ServerSettings(
                newHost,
                port,
                dataDir,
                dbUrl,
                maxBodyBytes,
                shutdownGrace,
                adminToken,
                tokens,
                retrieval,
                listener,
                ark);
    }

    public ServerSettings withPort(int newPort) {
        return new ServerSettings(
                host,
                newPort,
                dataDir,
                dbUrl,
                maxBodyBytes,
                shutdownGrace,
                adminToken,
                tokens,
                retrieval,
                listener,
                ark);
    }

    public ServerSettings withDataDir(Path newDataDir) {
        return new ServerSettings(
                host,
                port,
                newDataDir,
                dbUrl,
                maxBodyBytes,
                shutdownGrace,
                adminToken,
                tokens,
                retrieval,
                listener,
                ark);
    }

    public ServerSettings withDbUrl(String newDbUrl) {
        return new ServerSettings(
                host,
                port,
                dataDir,
                newDbUrl,
                maxBodyBytes,
                shutdownGrace,
                adminToken,
                tokens,
                retrieval,
                listener,
                ark);
    }

    public ServerSettings withAdminToken(String newAdminToken) {
        return new ServerSettings(
                host,
                port,
                dataDir,
                dbUrl,
                maxBodyBytes,
                shutdownGrace,
                newAdminToken,
                tokens,
                retrieval,
                listener,
                ark);
    }

    public ServerSettings withRetrieval(RetrievalConfig newRetrieval) {
        return new ServerSettings(
                host,
                port,
                dataDir,
                dbUrl,
                maxBodyBytes,
                shutdownGrace,
                adminToken,
                tokens,
                newRetrieval,
                listener,
                ark);
    }

    public ServerSettings withMaxBodyBytes(long newMax) {
        return new ServerSettings(
                host,
                port,
                dataDir,
                dbUrl,
                newMax,
                shutdownGrace,
                adminToken,
                tokens,
                retrieval,
                listener,
                ark);
    }

    public ServerSettings withArk(ArkSettings newArk) {
        return new ServerSettings(
                host,
                port,
                dataDir,
                dbUrl,
                maxBodyBytes,
                shutdownGrace,
                adminToken,
                tokens,
                retrieval,
                listener,
                newArk);
    }

    public ServerSettings withListener(ListenerSettings newListener) {
        return new ServerSettings(
                host,
                port,
                dataDir,
                dbUrl,
                maxBodyBytes,
                shutdownGrace,
                adminToken,
                tokens,
                retrieval,
                newListener,
                ark);
    }
}
