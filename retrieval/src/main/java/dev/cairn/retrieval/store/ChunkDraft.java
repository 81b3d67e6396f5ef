package dev.cairn.retrieval.store;

import dev.cairn.store.Records;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A chunk of a document as written by ingestion; the store gives it the id {@code documentId + "#"
 * + ordinal}.
 *
 * @param ordinal position in the document, >= 0, unique within the document
 * @param headingPath the headings above the chunk, outermost first (may be empty)
 * @param text the chunk text
 * @param tokenCount tokens in {@code text}, >= 0
 * @param embedding the dense vector, or empty when not embedded; copied in and out
 * @param embeddingModel which model made {@code embedding}, empty when not embedded
 */
public record ChunkDraft(
        int ordinal,
        List<String> headingPath,
        String text,
        int tokenCount,
        float[] embedding,
        String embeddingModel) {

    public ChunkDraft {
        if (ordinal < 0) {
            throw new IllegalArgumentException("illegal ordinal: " + ordinal + ", must be >= 0");
        }
        headingPath = Records.copyStrings(headingPath, "headingPath");
        Objects.requireNonNull(text, "text");
        if (tokenCount < 0) {
            throw new IllegalArgumentException(
                    "illegal tokenCount: " + tokenCount + ", must be >= 0");
        }
        embedding = Objects.requireNonNull(embedding, "embedding").clone();
        Records.requireFinite(embedding, "embedding");
        Objects.requireNonNull(embeddingModel, "embeddingModel");
    }

    /** A chunk that is not embedded yet, as the chunker makes it. */
    public static ChunkDraft unembedded(
            int ordinal, List<String> headingPath, String text, int tokenCount) {
        return new ChunkDraft(ordinal, headingPath, text, tokenCount, new float[0], "");
    }

    /** A copy of the vector; empty when the chunk is not embedded. */
    @Override
    public float[] embedding() {
        return embedding.clone();
    }

    /** A copy of this chunk with the given embedding. */
    public ChunkDraft withEmbedding(float[] vector, String model) {
        return new ChunkDraft(ordinal, headingPath, text, tokenCount, vector, model);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkDraft c
                && ordinal == c.ordinal
                && tokenCount == c.tokenCount
                && headingPath.equals(c.headingPath)
                && text.equals(c.text)
                && Arrays.equals(embedding, c.embedding)
                && embeddingModel.equals(c.embeddingModel);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ordinal, headingPath, text, tokenCount, embeddingModel)
                + 31 * Arrays.hashCode(embedding);
    }

    @Override
    public String toString() {
        return "ChunkDraft[ordinal="
                + ordinal
                + ", headingPath="
                + headingPath
                + ", text="
                + text.length()
                + " chars, tokenCount="
                + tokenCount
                + ", embedding="
                + embedding.length
                + " dims, embeddingModel="
                + embeddingModel
                + "]";
    }
}
