package dev.cairn.judge.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A namespace's registered policy document.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name the policy name
 * @param document the document as registered, YAML or JSON
 * @param updatedAt when it was last registered
 */
public record StoredPolicy(String name, String document, Instant updatedAt) {

    public StoredPolicy {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }
}
