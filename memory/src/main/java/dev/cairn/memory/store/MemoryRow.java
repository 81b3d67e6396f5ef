package dev.cairn.memory.store;

import dev.cairn.memory.Memory;
import java.util.List;
import java.util.Objects;

/**
 * A memory to write, its embedding and its turn windows' vectors ({@link
 * dev.cairn.memory.TurnWindows}). An empty embedding keeps the stored one (SQL NULL for a new row),
 * so status and flag changes need not carry the vector. The windows go with the embedding: with a
 * new embedding they replace the stored ones (null: not computed), with a kept embedding they are
 * kept unless given (maintenance computing them for memories written before windows existed).
 *
 * @param windows the windows' vectors (empty: the memory has none), or null when not given
 */
public record MemoryRow(Memory memory, float[] embedding, List<float[]> windows) {
    public MemoryRow {
        Objects.requireNonNull(memory, "memory");
        embedding = Objects.requireNonNull(embedding, "embedding").clone();
        if (windows != null) {
            windows = windows.stream().map(float[]::clone).toList();
        }
    }

    /** A row with a new embedding and no windows computed (the windows are cleared). */
    public MemoryRow(Memory memory, float[] embedding) {
        this(memory, embedding, null);
    }

    /** A row that keeps the stored embedding and windows. */
    public static MemoryRow keepEmbedding(Memory memory) {
        return new MemoryRow(memory, new float[0], null);
    }

    @Override
    public float[] embedding() {
        return embedding.clone();
    }

    @Override
    public List<float[]> windows() {
        return windows == null ? null : windows.stream().map(float[]::clone).toList();
    }
}
