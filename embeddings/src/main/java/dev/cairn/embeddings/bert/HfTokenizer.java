package dev.cairn.embeddings.bert;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.CharSpan;
import ai.djl.huggingface.tokenizers.jni.TokenizersLibrary;
import dev.cairn.embeddings.TokenCounter;
import dev.cairn.embeddings.kernels.TorchRuntime;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A HuggingFace {@code tokenizer.json} loaded twice: once to build model inputs (special tokens,
 * truncation at the model's limit, no padding) and once to count (no special tokens, no
 * truncation). Also the model's {@link TokenCounter}. Counts and model inputs take only the token
 * ids from DJL's tokenizers library: DJL's {@code Encoding} also builds every token's string,
 * offsets and masks, which was most of the cost of counting a ~1,000-token context block.
 *
 * <p>Thread-safe: the Rust tokenizer behind DJL's wrapper encodes concurrently.
 */
final class HfTokenizer implements TokenCounter, AutoCloseable {

    private final HuggingFaceTokenizer forModel;
    private final HuggingFaceTokenizer forCounting;
    private final boolean additiveAtWhitespace;

    private static final Pattern BERT_PRE_TOKENIZER =
            Pattern.compile(
                    "\"pre_tokenizer\"\\s*:\\s*\\{\\s*\"type\"\\s*:\\s*\"BertPreTokenizer\"");
    private static final Pattern WORD_PIECE =
            Pattern.compile("\"model\"\\s*:\\s*\\{\\s*\"type\"\\s*:\\s*\"WordPiece\"");

    private HfTokenizer(
            HuggingFaceTokenizer forModel,
            HuggingFaceTokenizer forCounting,
            boolean additiveAtWhitespace) {
        this.forModel = forModel;
        this.forCounting = forCounting;
        this.additiveAtWhitespace = additiveAtWhitespace;
    }

    /** Loads {@code resource} from the classpath; fails naming the resource if it is missing. */
    static HfTokenizer fromClasspath(String resource, int maxTokens) {
        TorchRuntime.preferOffline();
        ClassLoader cl = HfTokenizer.class.getClassLoader();
        try (InputStream in = open(cl, resource)) {
            return of(in.readAllBytes(), maxTokens);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read tokenizer " + resource, e);
        }
    }

    /** Loads a {@code tokenizer.json} file. */
    static HfTokenizer fromFile(Path file, int maxTokens) {
        TorchRuntime.preferOffline();
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("tokenizer file missing: " + file);
        }
        try {
            return of(Files.readAllBytes(file), maxTokens);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read tokenizer " + file, e);
        }
    }

    private static HfTokenizer of(byte[] json, int maxTokens) throws IOException {
        HuggingFaceTokenizer model =
                HuggingFaceTokenizer.newInstance(
                        new ByteArrayInputStream(json),
                        Map.of(
                                "addSpecialTokens", "true",
                                "truncation", "true",
                                "maxLength", Integer.toString(maxTokens),
                                "padding", "false"));
        HuggingFaceTokenizer counting =
                HuggingFaceTokenizer.newInstance(
                        new ByteArrayInputStream(json),
                        Map.of(
                                "addSpecialTokens", "false",
                                "truncation", "false",
                                "padding", "false"));
        String text = new String(json, StandardCharsets.UTF_8);
        boolean additive =
                BERT_PRE_TOKENIZER.matcher(text).find() && WORD_PIECE.matcher(text).find();
        return new HfTokenizer(model, counting, additive);
    }

    private static InputStream open(ClassLoader cl, String resource) {
        InputStream in = cl.getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException(
                    "tokenizer file missing: classpath resource " + resource + " not found");
        }
        return in;
    }

    /** Token ids with {@code [CLS]}/{@code [SEP]}, truncated to the model's limit. */
    long[][] encodeForModel(List<String> texts) {
        long[] encodings =
                TokenizersLibrary.LIB.batchEncode(
                        forModel.getHandle(), texts.toArray(String[]::new), true);
        long[][] ids = new long[encodings.length][];
        try {
            for (int i = 0; i < encodings.length; i++) {
                ids[i] = TokenizersLibrary.LIB.getTokenIds(encodings[i]);
            }
        } finally {
            for (long encoding : encodings) {
                TokenizersLibrary.LIB.deleteEncoding(encoding);
            }
        }
        return ids;
    }

    @Override
    public int count(String text) {
        requireText(text);
        long encoding = TokenizersLibrary.LIB.encode(forCounting.getHandle(), text, false);
        try {
            return TokenizersLibrary.LIB.getTokenIds(encoding).length;
        } finally {
            TokenizersLibrary.LIB.deleteEncoding(encoding);
        }
    }

    /**
     * True for a WordPiece model behind BERT's pre-tokenizer: text is normalised character by
     * character and split at whitespace (and punctuation) before WordPiece sees a word, so no token
     * spans a whitespace join.
     */
    @Override
    public boolean additiveAtWhitespace() {
        return additiveAtWhitespace;
    }

    @Override
    public String truncate(String text, int maxTokens) {
        requireText(text);
        if (maxTokens < 0) {
            throw new IllegalArgumentException(
                    "illegal maxTokens: " + maxTokens + ", must be >= 0");
        }
        Encoding e = forCounting.encode(text, false, false);
        long[] ids = e.getIds();
        if (ids.length <= maxTokens) {
            return text;
        }
        if (maxTokens == 0) {
            return "";
        }
        CharSpan[] spans = e.getCharTokenSpans();
        int end = spans[maxTokens - 1].getEnd();
        // Several tokens may share one character span (e.g. a word split into pieces): back off
        // until the prefix really has at most maxTokens tokens.
        String prefix = text.substring(0, Math.min(end, text.length()));
        int k = maxTokens - 1;
        int tokens = count(prefix);
        while (tokens > maxTokens && k > 0) {
            k--;
            prefix = text.substring(0, Math.min(spans[k].getEnd(), text.length()));
            tokens = count(prefix);
        }
        return tokens <= maxTokens ? prefix : "";
    }

    private static String requireText(String text) {
        if (text == null) {
            throw new IllegalArgumentException("illegal text: null");
        }
        return text;
    }

    @Override
    public void close() {
        forModel.close();
        forCounting.close();
    }
}
