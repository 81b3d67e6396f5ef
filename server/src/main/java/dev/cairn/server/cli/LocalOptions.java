package dev.cairn.server.cli;

import dev.cairn.server.Cairn;
import dev.cairn.server.ServerSettings;
import io.helidon.config.Config;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where a command finds Cairn's data when it runs without a server. */
final class LocalOptions {

    @Option(
            names = "--data",
            paramLabel = "DIR",
            description = "data dir (default ./cairn-data, or CAIRN_DATA_DIR)")
    Path dataDir;

    @Option(
            names = "--db-url",
            paramLabel = "JDBC_URL",
            description = "PostgreSQL JDBC URL (or CAIRN_DB_URL)")
    String dbUrl;

    ServerSettings settings() {
        return Settings.resolve(Config.create().get("cairn"), dataDir, null, dbUrl);
    }

    Cairn open() {
        return Cairn.open(settings());
    }
}
