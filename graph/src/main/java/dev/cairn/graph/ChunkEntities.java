package dev.cairn.graph;

import java.util.List;
import java.util.Objects;

/**
 * The entities one chunk mentions; each becomes a {@code chunk -mentions-> entity} edge.
 *
 * @param chunkId chunk id, unique in the namespace
 * @param mentions mentions in the chunk's text (may repeat an entity)
 */
public record ChunkEntities(String chunkId, List<Mention> mentions) {

    /** Validates and copies. */
    public ChunkEntities {
        Objects.requireNonNull(chunkId, "chunkId");
        if (chunkId.isBlank()) {
            throw new IllegalArgumentException("illegal chunk id: blank, must not be blank");
        }
        mentions = List.copyOf(mentions);
    }
}
