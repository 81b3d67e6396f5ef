package dev.cairn.memory.store;

import dev.cairn.memory.Memory;
import java.util.Objects;

/**
 * A memory to write and its embedding. An empty embedding keeps the stored one (SQL NULL for a new
 * row), so status and flag changes need not carry the vector.
 */
public record MemoryRow(Memory memory, float[] embedding) {
    public MemoryRow {
        Objects.requireNonNull(memory, "memory");
        embedding = Objects.requireNonNull(embedding, "embedding").clone();
    }

    /** A row that keeps the stored embedding. */
    public static MemoryRow keepEmbedding(Memory memory) {
        return new MemoryRow(memory, new float[0]);
    }

    @Override
    public float[] embedding() {
        return embedding.clone();
    }
}
