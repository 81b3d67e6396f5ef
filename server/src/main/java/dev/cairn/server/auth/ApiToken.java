package dev.cairn.server.auth;

import dev.cairn.store.StoredToken;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A bearer token as Cairn keeps it: never the secret, only its SHA-256 hash.
 *
 * @param name a label for operators, unique
 * @param sha256 lower-case hex SHA-256 of the secret
 * @param roles what the token may do
 * @param namespaces the namespaces it may do it in; {@code *} means all
 * @param createdAt when it was created
 */
public record ApiToken(
        String name, String sha256, Set<Role> roles, List<String> namespaces, Instant createdAt) {

    public static final String ALL_NAMESPACES = "*";
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
    private static final SecureRandom RANDOM = new SecureRandom();

    public ApiToken {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("token name must not be blank");
        }
        if (sha256 == null || !HEX64.matcher(sha256).matches()) {
            throw new IllegalArgumentException(
                    "illegal sha256 for token '" + name + "': must be 64 lower-case hex digits");
        }
        roles = Set.copyOf(roles);
        namespaces = List.copyOf(namespaces);
        if (roles.isEmpty()) {
            throw new IllegalArgumentException("token '" + name + "' must grant at least one role");
        }
        if (namespaces.isEmpty()) {
            throw new IllegalArgumentException(
                    "token '" + name + "' must grant at least one namespace (or *)");
        }
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** True when this token holds {@code role} in {@code namespace}. */
    public boolean allows(Role role, String namespace) {
        return roles.stream().anyMatch(r -> r.satisfies(role))
                && (namespaces.contains(ALL_NAMESPACES) || namespaces.contains(namespace));
    }

    /** True when this token holds {@code role} on every namespace. */
    public boolean allowsEverywhere(Role role) {
        return allows(role, ALL_NAMESPACES) && namespaces.contains(ALL_NAMESPACES);
    }

    /** This token as the store keeps it: roles by their wire names, in role order. */
    public StoredToken stored() {
        return new StoredToken(
                name,
                sha256,
                roles.stream().sorted().map(Role::wireName).toList(),
                namespaces,
                createdAt);
    }

    /** A token the store keeps. */
    public static ApiToken of(StoredToken stored) {
        return new ApiToken(
                stored.name(),
                stored.sha256(),
                stored.roles().stream().map(Role::parse).collect(Collectors.toSet()),
                stored.namespaces(),
                stored.createdAt());
    }

    /** Hex SHA-256 of a token secret. */
    public static String hash(String secret) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    /** A new random secret: {@code cairn_} and 32 random bytes, base64url. */
    public static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "cairn_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
