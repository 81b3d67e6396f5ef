package dev.cairn.retrieval.store;

import dev.cairn.store.Namespace;
import dev.cairn.store.Records;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A chunk as stored.
 *
 * @param namespace the namespace it lives in
 * @param id {@code documentId + "#" + ordinal}: stable across re-ingests of the same layout
 * @param documentId the document it belongs to
 * @param ordinal position in the document, >= 0
 * @param headingPath the headings above the chunk, outermost first (may be empty)
 * @param text the chunk text
 * @param tokenCount tokens in {@code text}, >= 0
 * @param embedding the dense vector, empty when not embedded; copied in and out
 * @param embeddingModel which model made {@code embedding}, empty when not embedded
 */
public record StoredChunk(
        String namespace,
        String id,
        String documentId,
        int ordinal,
        List<String> headingPath,
        String text,
        int tokenCount,
        float[] embedding,
        String embeddingModel) {

    /** Separates the headings of {@link #heading()}. */
    public static final String HEADING_SEPARATOR = " > ";

    public StoredChunk {
        Namespace.requireValidName(namespace);
        Records.requireText(id, "id");
        Records.requireText(documentId, "documentId");
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
        Objects.requireNonNull(embeddingModel, "embeddingModel");
    }

    /** The chunk id of ordinal {@code ordinal} in document {@code documentId}. */
    public static String chunkId(String documentId, int ordinal) {
        return documentId + "#" + ordinal;
    }

    /** The document id inside a chunk id made by {@link #chunkId(String, int)}. */
    public static String documentIdOf(String chunkId) {
        int hash = chunkId.lastIndexOf('#');
        return hash < 0 ? chunkId : chunkId.substring(0, hash);
    }

    /** The heading path joined with {@value #HEADING_SEPARATOR}; empty when there is none. */
    public String heading() {
        return String.join(HEADING_SEPARATOR, headingPath);
    }

    /** Whether the chunk has an embedding. */
    public boolean embedded() {
        return embedding.length > 0;
    }

    /** A copy of the vector; empty when the chunk is not embedded. */
    @Override
    public float[] embedding() {
        return embedding.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredChunk c
                && namespace.equals(c.namespace)
                && id.equals(c.id)
                && documentId.equals(c.documentId)
                && ordinal == c.ordinal
                && headingPath.equals(c.headingPath)
                && text.equals(c.text)
                && tokenCount == c.tokenCount
                && Arrays.equals(embedding, c.embedding)
                && embeddingModel.equals(c.embeddingModel);
    }

    @Override
    public int hashCode() {
        return Objects.hash(namespace, id, text) + 31 * Arrays.hashCode(embedding);
    }

    @Override
    public String toString() {
        return "StoredChunk[namespace="
                + namespace
                + ", id="
                + id
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
