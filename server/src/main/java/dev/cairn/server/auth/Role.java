package dev.cairn.server.auth;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a token may do. Roles are not hierarchical in storage, but {@link #ADMIN} implies every
 * other role and {@link #WRITE} and {@link #REVIEW} imply {@link #READ}.
 */
public enum Role {
    READ,
    WRITE,
    REVIEW,
    ADMIN;

    /** Parses {@code read|write|review|admin}, naming the allowed values on error. */
    public static Role parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unknown role: '"
                            + name
                            + "', must be one of "
                            + Arrays.stream(values())
                                    .map(r -> r.name().toLowerCase(Locale.ROOT))
                                    .collect(Collectors.joining(", ")));
        }
    }

    /** True when holding this role is enough for an action that needs {@code required}. */
    public boolean satisfies(Role required) {
        return this == required
                || this == ADMIN
                || (required == READ && (this == WRITE || this == REVIEW));
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
