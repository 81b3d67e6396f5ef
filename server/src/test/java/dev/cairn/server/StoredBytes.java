package dev.cairn.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Terms;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * Where a word is stored, for the tests of forgetting a user: in which files' bytes under a
 * directory, and in which committed Lucene segments' terms (Lucene may compress its terms, so bytes
 * alone cannot show that an index holds a word).
 */
public final class StoredBytes {

    private StoredBytes() {}

    /**
     * The files under {@code root} that hold {@code marker}'s UTF-8 bytes anywhere. A file that a
     * live index deletes while the walk goes on (a merged Lucene segment) is passed over, not an
     * error: the tests poll while a server works.
     */
    public static List<Path> filesHolding(Path root, String marker) {
        byte[] needle = marker.getBytes(StandardCharsets.UTF_8);
        List<Path> holding = new ArrayList<>();
        try {
            Files.walkFileTree(
                    root,
                    new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                            if (attrs.isRegularFile() && indexOf(read(file), needle) >= 0) {
                                holding.add(file);
                            }
                            return FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path file, IOException e)
                                throws IOException {
                            if (e instanceof NoSuchFileException) {
                                return FileVisitResult.CONTINUE;
                            }
                            throw e;
                        }
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return holding;
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new byte[0]; // a Lucene file deleted while walking
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Segments of the index committed in {@code dir} whose terms dictionary has {@code term}. */
    public static List<String> segmentsWithTerm(Path dir, String term) {
        List<String> holding = new ArrayList<>();
        try (FSDirectory d = FSDirectory.open(dir);
                DirectoryReader reader = DirectoryReader.open(d)) {
            for (LeafReaderContext leaf : reader.leaves()) {
                for (org.apache.lucene.index.FieldInfo field : leaf.reader().getFieldInfos()) {
                    Terms terms = leaf.reader().terms(field.name);
                    if (terms != null && terms.iterator().seekExact(new BytesRef(term))) {
                        holding.add(leaf.reader() + " " + field.name);
                    }
                }
            }
        } catch (org.apache.lucene.index.IndexNotFoundException | NoSuchFileException e) {
            return List.of(); // nothing committed yet
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return holding;
    }

    /**
     * Where {@code needle} first starts in {@code haystack}, -1 when nowhere. Latin-1 maps each
     * byte to one char, so the string search is a byte search.
     */
    public static int indexOf(byte[] haystack, byte[] needle) {
        return new String(haystack, StandardCharsets.ISO_8859_1)
                .indexOf(new String(needle, StandardCharsets.ISO_8859_1));
    }
}
