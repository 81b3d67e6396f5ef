package dev.cairn.store;

import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/** A tenant boundary: every stored row belongs to exactly one namespace. */
public record Namespace(String name, String description, Instant createdAt) {

    /** Legal namespace names (API.md). */
    public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    public Namespace {
        requireValidName(name);
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** Throws {@link IllegalArgumentException} naming the rule when {@code name} is not legal. */
    public static String requireValidName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "illegal namespace name: '" + name + "', must match " + NAME.pattern());
        }
        return name;
    }
}
