package dev.cairn.embeddings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module's packages depend one way (see each package-info): the API ({@code
 * dev.cairn.embeddings}) may create the BERT model, {@code bert} uses {@code kernels}, and {@code
 * kernels} depends on neither. {@code bert} reaches into the API only for the interfaces it
 * implements and the few leaf types listed in {@link #API_TYPES_BERT_MAY_USE}. Read from the
 * sources, so a reference in a comment ({@code {@link}} needs an import) counts as well.
 */
class PackageDependencyTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/cairn/embeddings");

    /**
     * API types {@code bert} may use: the interfaces its models implement, the pooling a caller
     * names in {@code EmbeddingModels.torchScript}, and two file helpers other modules use too.
     * Each must itself depend on nothing in {@code bert} or {@code kernels}.
     */
    static final Set<String> API_TYPES_BERT_MAY_USE =
            Set.of("EmbeddingModel", "TokenCounter", "Pooling", "CodeStamp", "AtomicReplace");

    /** A type of the API package, named by import or fully. */
    private static final Pattern API_TYPE =
            Pattern.compile("dev\\.cairn\\.embeddings\\.([A-Z]\\w*)");

    @Test
    void kernelsDependOnNeitherTheBertModelNorTheApi() {
        for (Path source : sources("kernels")) {
            String text = read(source);
            assertThat(text)
                    .as("%s refers to the BERT model", source)
                    .doesNotContain("dev.cairn.embeddings.bert");
            assertThat(apiTypes(text)).as("%s refers to the API", source).isEmpty();
        }
    }

    @Test
    void bertUsesOfTheApiOnlyTheInterfacesItImplementsAndLeafTypes() {
        for (Path source : sources("bert")) {
            assertThat(apiTypes(read(source)))
                    .as("API types %s refers to", source)
                    .isSubsetOf(API_TYPES_BERT_MAY_USE);
        }
        for (String type : API_TYPES_BERT_MAY_USE) {
            Path source = SOURCES.resolve(type + ".java");
            assertThat(read(source))
                    .as("%s, which bert may use, refers to bert or kernels", source)
                    .doesNotContain("dev.cairn.embeddings.bert")
                    .doesNotContain("dev.cairn.embeddings.kernels");
        }
    }

    @Test
    void theScanSeesEveryPackage() {
        assertThat(sources("kernels")).hasSizeGreaterThan(10);
        assertThat(sources("bert")).hasSizeGreaterThan(5);
        assertThat(apiTypes("import dev.cairn.embeddings.EmbeddingModels;\n"))
                .containsExactly("EmbeddingModels");
        assertThat(apiTypes("import dev.cairn.embeddings.kernels.Int8Linear;\n")).isEmpty();
    }

    private static List<String> apiTypes(String text) {
        List<String> types = new ArrayList<>();
        Matcher m = API_TYPE.matcher(text);
        while (m.find()) {
            types.add(m.group(1));
        }
        return types;
    }

    private static List<Path> sources(String pkg) {
        try (Stream<Path> files = Files.list(SOURCES.resolve(pkg))) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path source) {
        try {
            return Files.readString(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
