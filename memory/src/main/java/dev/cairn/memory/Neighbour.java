package dev.cairn.memory;

import java.util.Objects;

/** An existing memory and its cosine similarity to a new one, as found by dense search. */
public record Neighbour(Memory memory, double cosine) {
    public Neighbour {
        Objects.requireNonNull(memory, "memory");
        if (!(cosine >= -1.0001 && cosine <= 1.0001)) {
            throw new IllegalArgumentException(
                    "illegal cosine: " + cosine + ", must be in [-1, 1]");
        }
    }
}
