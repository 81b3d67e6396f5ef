package dev.cairn.safety;

import java.util.Objects;

/**
 * Where a secret was found: {@code [start, end)} in the scanned text. Deliberately carries no part
 * of the secret.
 */
public record SecretFinding(SecretKind kind, int start, int end) {
    public SecretFinding {
        Objects.requireNonNull(kind, "kind");
        if (start < 0 || end <= start) {
            throw new IllegalArgumentException(
                    "illegal range: [" + start + ", " + end + "), must be 0 <= start < end");
        }
    }
}
