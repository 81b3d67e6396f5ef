package dev.cairn.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An API token as the store keeps it: the SHA-256 hash of its secret, never the secret. Roles are
 * the server's role names; the store keeps them as given.
 *
 * @param name the token's name, unique in the store
 * @param sha256 lower-case hex SHA-256 of the secret, unique in the store
 * @param roles what the token may do, at least one
 * @param namespaces where it may do it ({@code *}: everywhere), at least one
 * @param createdAt when it was made
 */
public record StoredToken(
        String name,
        String sha256,
        List<String> roles,
        List<String> namespaces,
        Instant createdAt) {

    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");

    public StoredToken {
        Records.requireText(name, "name");
        Objects.requireNonNull(sha256, "sha256");
        if (!HEX64.matcher(sha256).matches()) {
            throw new IllegalArgumentException(
                    "illegal sha256 of token '" + name + "': must be 64 lower-case hex digits");
        }
        roles = Records.copyStrings(roles, "roles");
        namespaces = Records.copyStrings(namespaces, "namespaces");
        if (roles.isEmpty() || namespaces.isEmpty()) {
            throw new IllegalArgumentException(
                    "illegal token '" + name + "': needs at least one role and one namespace");
        }
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
