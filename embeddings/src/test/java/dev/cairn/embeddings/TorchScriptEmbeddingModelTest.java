package dev.cairn.embeddings;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only the failure paths: building a TorchScript file needs Python's {@code torch.jit}, which the
 * offline build does not have.
 */
class TorchScriptEmbeddingModelTest {

    @TempDir Path dir;

    @Test
    void rejectsAMissingDirectory() {
        Path missing = dir.resolve("nope");
        assertThatThrownBy(() -> EmbeddingModels.torchScript(missing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("TorchScript model directory not found: " + missing);
    }

    @Test
    void namesTheFilesAnEmptyDirectoryLacks() {
        assertThatThrownBy(() -> EmbeddingModels.torchScript(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exactly one TorchScript file *.pt (found 0)")
                .hasMessageContaining("tokenizer.json");
    }

    @Test
    void reportsAnInvalidTorchScriptFile() throws Exception {
        Files.writeString(dir.resolve("model.pt"), "not a TorchScript archive");
        try (InputStream in =
                getClass()
                        .getClassLoader()
                        .getResourceAsStream("all-minilm-l6-v2-tokenizer.json")) {
            Files.copy(in, dir.resolve("tokenizer.json"));
        }
        assertThatThrownBy(() -> EmbeddingModels.torchScript(dir))
                .isInstanceOf(RuntimeException.class)
                .hasMessageContaining("model.pt");
    }
}
