package dev.cairn.embeddings;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * Which build of Cairn is running, for files derived by code and kept across restarts (the model's
 * converted weights here, the entity graph's snapshot in retrieval): a file stamped by another
 * build is derived again rather than trusted, since the code that derived it may have changed.
 * Thread-safe (stateless).
 */
public final class CodeStamp {

    private CodeStamp() {}

    /**
     * The name, size and modification time of the jar {@code anchor} was loaded from; {@code
     * classes} when it was loaded from a class directory (a development build or a test, where the
     * file's own format version alone tells derivations apart); {@code unknown} when it cannot be
     * told.
     */
    public static String of(Class<?> anchor) {
        try {
            CodeSource source = anchor.getProtectionDomain().getCodeSource();
            if (source == null || source.getLocation() == null) {
                return "unknown";
            }
            Path location = Path.of(source.getLocation().toURI());
            if (!Files.isRegularFile(location)) {
                return "classes";
            }
            return location.getFileName()
                    + ":"
                    + Files.size(location)
                    + ":"
                    + Files.getLastModifiedTime(location).toMillis();
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return "unknown";
        }
    }
}
