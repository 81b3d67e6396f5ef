package dev.cairn.store;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A tenant boundary: every stored row belongs to exactly one namespace.
 *
 * @param recallScope what a recall that names no user may read (see {@link RecallScope})
 */
public record Namespace(
        String name, String description, Instant createdAt, RecallScope recallScope) {

    /**
     * What a recall without a {@code userId} reads in this namespace. An agent that forgets the
     * field must not read every user's memories by accident, so a new namespace is {@link #USER}.
     */
    public enum RecallScope {
        /** A recall must name its user, or ask for the whole namespace explicitly. */
        USER,
        /** A recall without a user reads every user's memories (namespaces made before V015). */
        NAMESPACE;

        /** The lower-case name used in the API: {@code user}, {@code namespace}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Parses {@code user} or {@code namespace}; 400-style error naming {@code field}. */
        public static RecallScope parse(String value, String field) {
            for (RecallScope s : values()) {
                if (s.label().equals(value)) {
                    return s;
                }
            }
            throw new IllegalArgumentException(
                    "field '" + field + "' must be 'user' or 'namespace', got '" + value + "'");
        }
    }

    /** Legal namespace names (API.md). */
    public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    public Namespace {
        requireValidName(name);
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(recallScope, "recallScope");
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
