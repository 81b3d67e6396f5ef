package dev.cairn.judge;

import dev.cairn.embeddings.EmbeddingModel;
import java.util.List;

/**
 * Semantic similarity between claims and evidence passages, the first signal of support. Two
 * strategies: {@link #lexical()} (TF-IDF cosine, no model) and {@link #embedding(EmbeddingModel)}
 * (cosine of sentence embeddings). Implementations are thread-safe.
 */
public interface SimilarityFunction {

    /** Short name for reports, e.g. {@code lexical-tfidf}. */
    String name();

    /**
     * Similarities of every claim to every passage, {@code result[i][j]} for claim {@code i} and
     * passage {@code j}, each in [0, 1] (negative cosines are clamped to 0).
     */
    double[][] similarities(List<String> claims, List<String> passages);

    /**
     * TF-IDF cosine over stemmed content words, with IDF taken from the claims and passages of the
     * same call: {@code idf(t) = ln((1 + N) / (1 + df(t))) + 1} (the smoothed IDF of scikit-learn's
     * {@code TfidfVectorizer}), {@code tf} raw counts. Needs no model; blind to synonyms.
     */
    static SimilarityFunction lexical() {
        return LexicalSimilarity.INSTANCE;
    }

    /**
     * Cosine of the model's L2-normalised document embeddings (claims and passages are both
     * embedded as documents, the comparison being symmetric). As thread-safe as the model.
     */
    static SimilarityFunction embedding(EmbeddingModel model) {
        return new EmbeddingSimilarity(model);
    }

    /**
     * The weighted mean {@code firstWeight * first + (1 - firstWeight) * second}, e.g. lexical
     * TF-IDF with BERT embeddings: the embedding sees paraphrases, TF-IDF keeps exact terms apart.
     *
     * @throws IllegalArgumentException when {@code firstWeight} is outside [0, 1]
     */
    static SimilarityFunction blend(
            SimilarityFunction first, SimilarityFunction second, double firstWeight) {
        return new BlendedSimilarity(first, second, firstWeight);
    }
}
