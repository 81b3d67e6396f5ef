package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.embeddings.EmbeddingModels;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model's converted weights live once per user, not once per data dir: opening a data dir
 * leaves none in it, reads them from the per-user cache, and deletes the 147 MB copy an earlier
 * version kept there.
 */
class SharedWeightsTest {

    @Test
    void aDataDirHoldsNoWeightsAndLosesTheCopyAnEarlierVersionKept(@TempDir Path dir)
            throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Path old = Files.writeString(data.resolve("model-weights-bge-small-en-v1.5-int8.bin"), "x");
        try (LogCapture logs = new LogCapture("dev.cairn");
                Cairn cairn = Cairn.open(ServerSettings.defaults(data))) {
            assertThat(cairn.model().embedQuery("warm")).hasSize(384);
            assertThat(old).doesNotExist();
            assertThat(RestartTest.weightFiles(data)).isEmpty();
            assertThat(RestartTest.messages(logs))
                    .anySatisfy(
                            m ->
                                    assertThat(m)
                                            .startsWith("deleted " + old)
                                            .contains(
                                                    "kept in " + EmbeddingModels.weightCacheDir()))
                    .anySatisfy(
                            m ->
                                    assertThat(m)
                                            .startsWith("model bge-small-en-v1.5")
                                            .containsAnyOf(
                                                    "weights read from "
                                                            + EmbeddingModels.weightCacheDir(),
                                                    "weights converted from"));
        }
        assertThat(EmbeddingModels.weightCacheDir()).isDirectory();
        try (var files = Files.list(EmbeddingModels.weightCacheDir())) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .anySatisfy(f -> assertThat(f).startsWith("model-weights-bge-small-en-v1.5"));
        }
    }
}
