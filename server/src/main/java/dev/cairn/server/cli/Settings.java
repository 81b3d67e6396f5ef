package dev.cairn.server.cli;

import dev.cairn.server.ServerSettings;
import io.helidon.config.Config;
import java.nio.file.Path;

/**
 * Resolves server settings by precedence: command-line option, then the documented environment
 * variables ({@code CAIRN_DATA_DIR}, {@code CAIRN_PORT}, {@code CAIRN_DB_URL}, {@code
 * CAIRN_ADMIN_TOKEN}), then {@code application.yaml} with Helidon's own overrides.
 */
final class Settings {

    private Settings() {}

    static ServerSettings resolve(Config cairn, Path dataDir, Integer port, String dbUrl) {
        ServerSettings settings = ServerSettings.fromConfig(cairn);
        String envData = System.getenv("CAIRN_DATA_DIR");
        if (dataDir != null) {
            settings = settings.withDataDir(dataDir);
        } else if (envData != null && !envData.isBlank()) {
            settings = settings.withDataDir(Path.of(envData));
        }
        String envPort = System.getenv("CAIRN_PORT");
        if (port != null) {
            settings = settings.withPort(port);
        } else if (envPort != null && !envPort.isBlank()) {
            try {
                settings = settings.withPort(Integer.parseInt(envPort.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "CAIRN_PORT must be a number, got '" + envPort + "'");
            }
        }
        String envDb = System.getenv("CAIRN_DB_URL");
        if (dbUrl != null) {
            settings = settings.withDbUrl(dbUrl);
        } else if (envDb != null && !envDb.isBlank()) {
            settings = settings.withDbUrl(envDb);
        }
        String envAdmin = System.getenv("CAIRN_ADMIN_TOKEN");
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
                    "CAIRN_ADMIN_TOKEN has "
                            + trimmed.length()
                            + " characters, must have at least "
                            + ServerSettings.MIN_ADMIN_TOKEN_CHARS
                            + " (e.g. openssl rand -base64 32)");
        }
    }
}
