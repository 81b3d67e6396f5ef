package dev.cairn.server.cli;

import dev.cairn.server.ServerSettings;
import io.helidon.config.Config;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Resolves server settings by precedence: command-line option, then the documented environment
 * variables ({@value #DATA_DIR}, {@value #PORT}, {@value #DB_URL}, {@value #ADMIN_TOKEN}), then
 * {@code application.yaml} with Helidon's own overrides ({@code CAIRN_<KEY>}, e.g. {@code
 * CAIRN_SERVER_HOST} for {@code cairn.server.host}). The container image and the Kubernetes
 * manifests under {@code deploy/} set these variables; a test keeps them to these names.
 */
final class Settings {

    static final String DATA_DIR = "CAIRN_DATA_DIR";
    static final String PORT = "CAIRN_PORT";
    static final String DB_URL = "CAIRN_DB_URL";
    static final String ADMIN_TOKEN = "CAIRN_ADMIN_TOKEN";

    /** Every variable {@link #resolve} reads itself, besides Helidon's overrides. */
    static final List<String> VARIABLES = List.of(DATA_DIR, PORT, DB_URL, ADMIN_TOKEN);

    private Settings() {}

    static ServerSettings resolve(Config cairn, Path dataDir, Integer port, String dbUrl) {
        return resolve(cairn, dataDir, port, dbUrl, System.getenv());
    }

    /**
     * As {@link #resolve(Config, Path, Integer, String)} with {@code environment} for the
     * process's.
     */
    static ServerSettings resolve(
            Config cairn,
            Path dataDir,
            Integer port,
            String dbUrl,
            Map<String, String> environment) {
        ServerSettings settings = ServerSettings.fromConfig(cairn);
        String envData = environment.get(DATA_DIR);
        if (dataDir != null) {
            settings = settings.withDataDir(dataDir);
        } else if (envData != null && !envData.isBlank()) {
            settings = settings.withDataDir(Path.of(envData));
        }
        String envPort = environment.get(PORT);
        if (port != null) {
            settings = settings.withPort(port);
        } else if (envPort != null && !envPort.isBlank()) {
            try {
                settings = settings.withPort(Integer.parseInt(envPort.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        PORT + " must be a number, got '" + envPort + "'");
            }
        }
        String envDb = environment.get(DB_URL);
        if (dbUrl != null) {
            settings = settings.withDbUrl(dbUrl);
        } else if (envDb != null && !envDb.isBlank()) {
            settings = settings.withDbUrl(envDb);
        }
        String envAdmin = environment.get(ADMIN_TOKEN);
        if (envAdmin != null && !envAdmin.isBlank()) {
            settings = settings.withAdminToken(envAdmin);
        }
        requireStrongAdminToken(settings.adminToken());
        return settings;
    }

    /**
     * A configured admin token is the key to every namespace: one shorter than {@value
     * ServerSettings#MIN_ADMIN_TOKEN_CHARS} characters is refused at start (unset is fine: the
     * server then generates one).
     */
    static void requireStrongAdminToken(String token) {
        String trimmed = token.trim();
        if (!trimmed.isEmpty() && trimmed.length() < ServerSettings.MIN_ADMIN_TOKEN_CHARS) {
            throw new IllegalArgumentException(
                    ADMIN_TOKEN
                            + " has "
                            + trimmed.length()
                            + " characters, must have at least "
                            + ServerSettings.MIN_ADMIN_TOKEN_CHARS
                            + " (e.g. openssl rand -base64 32)");
        }
    }
}
