package dev.cairn.graph;

import java.util.List;

/**
 * What {@link EntityExtractor} found in a text.
 *
 * @param mentions entity mentions, by start offset
 * @param relations relations stated between mentioned entities ("X depends on Y")
 */
public record Extraction(List<Mention> mentions, List<Relation> relations) {

    /** Copies. */
    public Extraction {
        mentions = List.copyOf(mentions);
        relations = List.copyOf(relations);
    }
}
