package dev.cairn.embeddings;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Optional;

/**
 * Where the converted weights of the models are kept: one directory per user, shared by every data
 * dir and command line on the machine ({@code bert.WeightCacheFile} keys each file by model and
 * build), so a new data dir or a command line's first load reads them instead of converting the
 * model file again. Stateless, thread-safe.
 *
 * <p>The directory, first that is set: the system property {@value #PROPERTY}; {@code
 * $XDG_CACHE_HOME/cairn}; {@code ~/.cache/cairn}. When it cannot be created or written, one warning
 * says so and a directory for this user under {@code java.io.tmpdir} is used; when that fails too,
 * the weights are converted at every start and not kept.
 */
final class WeightCacheDir {

    private static final System.Logger LOG = System.getLogger(WeightCacheDir.class.getName());

    /** System property naming the directory (tests; an operator who wants it elsewhere). */
    static final String PROPERTY = "cairn.weights.cache-dir";

    private WeightCacheDir() {}

    /** The configured directory, created owner-only when missing; see the class comment. */
    static Optional<Path> user() {
        Path wanted = configured();
        Optional<String> problem = usable(wanted);
        if (problem.isEmpty()) {
            return Optional.of(wanted);
        }
        Path fallback =
                Path.of(System.getProperty("java.io.tmpdir"))
                        .resolve("cairn-weights-" + userName());
        Optional<String> fallbackProblem = usable(fallback);
        if (fallbackProblem.isEmpty()) {
            LOG.log(
                    Level.WARNING,
                    "cannot keep the model weights in {0} ({1}); using {2} instead (set {3} or"
                            + " XDG_CACHE_HOME to a writable directory)",
                    wanted,
                    problem.get(),
                    fallback,
                    PROPERTY);
            return Optional.of(fallback);
        }
        LOG.log(
                Level.WARNING,
                "cannot keep the model weights in {0} ({1}) nor in {2} ({3}); every start converts"
                        + " them again (set {4} or XDG_CACHE_HOME to a writable directory)",
                wanted,
                problem.get(),
                fallback,
                fallbackProblem.get(),
                PROPERTY);
        return Optional.empty();
    }

    /** The directory the settings name, whether or not it is usable. */
    static Path configured() {
        String property = System.getProperty(PROPERTY, "");
        if (!property.isBlank()) {
            return Path.of(property);
        }
        String xdg = System.getenv().getOrDefault("XDG_CACHE_HOME", "");
        // the XDG spec: a relative path is invalid and to be ignored
        if (!xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg).resolve("cairn");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "cairn");
    }

    /** Why {@code dir} cannot hold the weights, or empty when it can (created when missing). */
    static Optional<String> usable(Path dir) {
        try {
            if (!Files.isDirectory(dir)) {
                try {
                    Files.createDirectories(
                            dir,
                            PosixFilePermissions.asFileAttribute(
                                    PosixFilePermissions.fromString("rwx------")));
                } catch (UnsupportedOperationException e) {
                    Files.createDirectories(dir);
                }
            }
            if (!Files.isWritable(dir)) {
                return Optional.of("not writable");
            }
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.of("cannot create it: " + e);
        }
    }

    private static String userName() {
        return System.getProperty("user.name", "user")
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9_-]", "_");
    }
}
