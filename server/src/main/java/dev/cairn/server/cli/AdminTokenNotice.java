package dev.cairn.server.cli;

import dev.cairn.server.DataDir;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Files a generated admin token when standard output is not a terminal (a service manager, a log
 * file): in an owner-only file in the data dir, whose path {@link ServeBanner} prints instead of
 * the secret.
 */
final class AdminTokenNotice {

    static final String FILE = "admin-token.txt";

    private AdminTokenNotice() {}

    /**
     * What the banner says about the admin token: the one this start generated (shown on a
     * terminal, else filed), the configured one, or the one an earlier start generated (and the
     * file it went to, when it is still there).
     */
    static ServeBanner.AdminToken banner(
            Optional<String> generated, boolean terminal, boolean configured, Path dataDir) {
        if (generated.isPresent()) {
            return terminal
                    ? new ServeBanner.AdminToken.Shown(generated.get())
                    : new ServeBanner.AdminToken.Filed(write(generated.get(), dataDir));
        }
        if (configured) {
            return new ServeBanner.AdminToken.Configured();
        }
        Path file = dataDir.resolve(FILE).toAbsolutePath();
        return new ServeBanner.AdminToken.Earlier(
                Optional.of(file).filter(Files::isRegularFile), file);
    }

    /** Writes {@code token} to {@link #FILE} in {@code dataDir}, owner-only; returns the file. */
    static Path write(String token, Path dataDir) {
        Path file = dataDir.resolve(FILE);
        try {
            Files.writeString(file, token + "\n", StandardCharsets.UTF_8);
            DataDir.restrict(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the admin token to " + file, e);
        }
        return file.toAbsolutePath();
    }
}
