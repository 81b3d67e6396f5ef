package dev.cairn.agents.kv;

import java.util.List;

/**
 * A key/value search's answer: the hits, best first, and how many further matches were withheld
 * because their entries are flagged for review.
 */
public record KeyValueSearch(List<KeyValueHit> hits, int withheld) {
    public KeyValueSearch {
        hits = List.copyOf(hits);
        if (withheld < 0) {
            throw new IllegalArgumentException("illegal withheld: " + withheld + ", must be >= 0");
        }
    }
}
