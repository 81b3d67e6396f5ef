package dev.cairn.retrieval.lexical;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LexicalIndex#purgeDeleted} leaves no byte of a deleted document's words in the index's
 * directory, whatever segments the document landed in and with searches running meanwhile, while
 * every live document stays searchable (issue 44: forgetting a user).
 */
class PurgeDeletedTest {

    @TempDir Path dir;

    @Test
    void noFileKeepsTheWordsOfADeletedDocument() throws Exception {
        for (int round = 0; round < 10; round++) {
            long seed = 1_000 + round;
            Random random = new Random(seed);
            Path root = dir.resolve("r" + round);
            String gone = "zq" + word(random) + "qx";
            String kept = "zq" + word(random) + "qx";
            try (LexicalIndex index = LexicalIndex.open(root, LexicalConfig.DEFAULTS)) {
                int docs = 5 + random.nextInt(30);
                List<String> forgotten = new ArrayList<>();
                for (int i = 0; i < docs; i++) {
                    boolean theirs = random.nextInt(3) == 0;
                    String id = "m" + i;
                    index.upsertDocument(
                            "ns",
                            id,
                            List.of(
                                    new IndexedChunk(
                                            id,
                                            "",
                                            List.of(),
                                            "note " + i + " " + (theirs ? gone : kept))));
                    if (theirs) {
                        forgotten.add(id);
                    }
                    if (random.nextInt(4) == 0) {
                        index.commit(); // a segment per commit: the words spread over several
                    }
                    index.search("ns", kept, 5, false);
                }
                index.commit();
                if (forgotten.isEmpty()) {
                    continue;
                }
                assertThat(filesHolding(root, gone)).as("seed %d", seed).isNotEmpty();
                Thread searching =
                        Thread.ofPlatform()
                                .start(
                                        () -> {
                                            for (int i = 0; i < 200; i++) {
                                                index.search("ns", kept + " " + gone, 5, false);
                                            }
                                        });
                for (String id : forgotten) {
                    index.deleteDocument("ns", id);
                }
                index.purgeDeleted("ns");
                searching.join();

                assertThat(filesHolding(root, gone))
                        .as("seed %d %s", seed, diag(root.resolve("ns"), gone))
                        .isEmpty();
                assertThat(index.search("ns", gone, 5, false)).isEmpty();
                assertThat(index.chunkCount("ns")).isEqualTo(docs - forgotten.size());
            }
        }
    }

    /** The directory's files, the latest commit's segments and which of them hold {@code term}. */
    private static String diag(Path d, String term) {
        try (var fs = org.apache.lucene.store.FSDirectory.open(d)) {
            var infos = org.apache.lucene.index.SegmentInfos.readLatestCommit(fs);
            StringBuilder b =
                    new StringBuilder(
                            "files " + List.of(fs.listAll()) + " committed " + infos.files(true));
            for (var sci : infos) {
                b.append(" ")
                        .append(sci.info.name)
                        .append(" del=")
                        .append(sci.getDelCount())
                        .append(" max=")
                        .append(sci.info.maxDoc());
            }
            try (var r = org.apache.lucene.index.DirectoryReader.open(fs)) {
                for (var leaf : r.leaves()) {
                    for (var fi : leaf.reader().getFieldInfos()) {
                        var t = leaf.reader().terms(fi.name);
                        if (t != null
                                && t.iterator()
                                        .seekExact(new org.apache.lucene.util.BytesRef(term))) {
                            b.append(" TERM in ").append(leaf.reader()).append(" ").append(fi.name);
                        }
                    }
                }
            }
            return b.toString();
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static String word(Random random) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            b.append((char) ('a' + random.nextInt(26)));
        }
        return b.toString();
    }

    private static List<Path> filesHolding(Path root, String word) {
        byte[] needle = word.getBytes(StandardCharsets.UTF_8);
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).filter(f -> holds(f, needle)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean holds(Path file, byte[] needle) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            return false; // deleted while walking
        }
        // Latin-1 maps each byte to one char: the string search is a byte search
        return new String(bytes, StandardCharsets.ISO_8859_1)
                .contains(new String(needle, StandardCharsets.ISO_8859_1));
    }
}
