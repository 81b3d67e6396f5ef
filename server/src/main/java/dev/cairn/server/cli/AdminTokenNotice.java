package dev.cairn.server.cli;

import dev.cairn.server.DataDir;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells the operator a generated admin token once. On a terminal it is printed; when standard
 * output is not a terminal (a service manager, a log file) it is written to an owner-only file in
 * the data dir instead, and only that file's path is printed, so the secret never lands in a log.
 */
final class AdminTokenNotice {

    static final String FILE = "admin-token.txt";

    private AdminTokenNotice() {}

    /**
     * Shows or files {@code token}; returns what the banner's examples may print in its place.
     *
     * @param terminal whether standard output is a terminal
     */
    static String announce(String token, boolean terminal, Path dataDir, PrintStream out) {
        if (terminal) {
            out.println("Admin token (shown once, keep it): " + token);
            return token;
        }
        Path file = dataDir.resolve(FILE);
        try {
            Files.writeString(file, token + "\n", StandardCharsets.UTF_8);
            DataDir.restrict(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the admin token to " + file, e);
        }
        out.println(
                "Admin token written to "
                        + file.toAbsolutePath()
                        + " (owner-only; store it and delete the file)");
        return "$CAIRN_TOKEN";
    }
}
