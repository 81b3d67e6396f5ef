package dev.cairn.agents.kv;

import java.util.Objects;

/** One key/value search hit with its fused score. */
public record KeyValueHit(String key, String value, double score) {
    public KeyValueHit {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }
}
