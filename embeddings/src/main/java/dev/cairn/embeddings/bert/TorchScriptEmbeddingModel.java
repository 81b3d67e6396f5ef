package dev.cairn.embeddings.bert;

import ai.djl.MalformedModelException;
import ai.djl.huggingface.translator.TextEmbeddingTranslatorFactory;
import ai.djl.inference.Predictor;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ModelNotFoundException;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.TranslateException;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.Pooling;
import dev.cairn.embeddings.TokenCounter;
import dev.cairn.embeddings.kernels.TorchRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * A user's TorchScript sentence-embedding model, loaded through DJL's standard {@link Criteria}
 * with the HuggingFace {@link TextEmbeddingTranslatorFactory} (tokenisation, pooling and
 * normalisation as DJL's own text-embedding models).
 *
 * <p>The directory holds a TorchScript file ({@code <name>.pt}, traced or scripted to take {@code
 * input_ids}, {@code attention_mask} and optionally {@code token_type_ids}) and the model's {@code
 * tokenizer.json}; an optional {@code serving.properties} may set further translator options.
 *
 * <p>Thread-safe: the model is shared and each call uses its own {@link Predictor}.
 */
public final class TorchScriptEmbeddingModel implements EmbeddingModel {

    private final String id;
    private final ZooModel<String[], float[][]> model;
    private final HfTokenizer tokenizer;
    private final String queryPrefix;
    private final int maxTokens;
    private final int dimensions;
    private final AtomicBoolean closed = new AtomicBoolean();

    private TorchScriptEmbeddingModel(
            String id,
            ZooModel<String[], float[][]> model,
            HfTokenizer tokenizer,
            String queryPrefix,
            int maxTokens) {
        this.id = id;
        this.model = model;
        this.tokenizer = tokenizer;
        this.queryPrefix = queryPrefix;
        this.maxTokens = maxTokens;
        this.dimensions = predict(new String[] {"dimension probe"})[0].length;
    }

    public static TorchScriptEmbeddingModel load(
            Path directory, Pooling pooling, String queryPrefix, int maxTokens) {
        if (directory == null || !Files.isDirectory(directory)) {
            throw new IllegalArgumentException(
                    "TorchScript model directory not found: " + directory);
        }
        if (queryPrefix == null || pooling == null) {
            throw new IllegalArgumentException("pooling and queryPrefix are required");
        }
        if (maxTokens < 2) {
            throw new IllegalArgumentException(
                    "illegal maxTokens: " + maxTokens + ", must be >= 2");
        }
        Path tokenizerFile = directory.resolve("tokenizer.json");
        List<Path> scripts;
        try (Stream<Path> files = Files.list(directory)) {
            scripts = files.filter(p -> p.getFileName().toString().endsWith(".pt")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
        List<String> missing = new ArrayList<>();
        if (scripts.size() != 1) {
            missing.add("exactly one TorchScript file *.pt (found " + scripts.size() + ")");
        }
        if (!Files.isRegularFile(tokenizerFile)) {
            missing.add("tokenizer.json");
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(
                    "TorchScript model directory "
                            + directory
                            + " lacks "
                            + String.join(", ", missing));
        }
        String name = scripts.getFirst().getFileName().toString();
        name = name.substring(0, name.length() - ".pt".length());
        TorchRuntime.engine();
        Criteria<String[], float[][]> criteria =
                Criteria.builder()
                        .setTypes(String[].class, float[][].class)
                        .optModelPath(directory)
                        .optModelName(name)
                        .optEngine("PyTorch")
                        .optTranslatorFactory(new TextEmbeddingTranslatorFactory())
                        .optArgument("pooling", pooling.name().toLowerCase(Locale.ROOT))
                        .optArgument("normalize", "true")
                        .optArgument("maxLength", Integer.toString(maxTokens))
                        .optArgument("truncation", "true")
                        .build();
        HfTokenizer tokenizer = HfTokenizer.fromFile(tokenizerFile, maxTokens);
        try {
            ZooModel<String[], float[][]> model = criteria.loadModel();
            try {
                return new TorchScriptEmbeddingModel(
                        "torchscript:" + directory.toAbsolutePath().normalize().getFileName(),
                        model,
                        tokenizer,
                        queryPrefix,
                        maxTokens);
            } catch (RuntimeException e) {
                model.close();
                throw e;
            }
        } catch (ModelNotFoundException | MalformedModelException | IOException e) {
            tokenizer.close();
            throw new IllegalStateException(
                    "cannot load TorchScript model " + scripts.getFirst() + ": " + e.getMessage(),
                    e);
        } catch (RuntimeException e) {
            tokenizer.close();
            throw e;
        }
    }

    private float[][] predict(String[] texts) {
        if (closed.get()) {
            throw new IllegalStateException("model " + id + " is closed");
        }
        return TorchRuntime.onInferenceThread(
                () -> {
                    TorchRuntime.noGrad();
                    try (Predictor<String[], float[][]> predictor = model.newPredictor()) {
                        return predictor.predict(texts);
                    } catch (TranslateException e) {
                        throw new IllegalStateException("TorchScript model " + id + " failed", e);
                    }
                });
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public int dimensions() {
        return dimensions;
    }

    @Override
    public int maxTokens() {
        return maxTokens;
    }

    @Override
    public List<float[]> embedQueries(List<String> texts) {
        return embedDocuments(texts.stream().map(t -> queryPrefix + t).toList());
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        return List.of(predict(texts.toArray(String[]::new)));
    }

    @Override
    public TokenCounter tokenCounter() {
        return tokenizer;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            model.close();
            tokenizer.close();
        }
    }
}
