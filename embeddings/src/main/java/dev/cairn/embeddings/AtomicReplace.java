package dev.cairn.embeddings;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The last step of writing a file that readers must never see half-written (the model's converted
 * weights here, the entity graph's snapshot, the server's marker): the finished temporary file
 * replaces the target in one rename. Thread-safe (stateless).
 */
public final class AtomicReplace {

    private AtomicReplace() {}

    /**
     * Renames {@code finished} over {@code target} atomically, or, on a file system that cannot,
     * with a plain replacing move.
     */
    public static void move(Path finished, Path target) throws IOException {
        try {
            Files.move(
                    finished,
                    target,
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(finished, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
