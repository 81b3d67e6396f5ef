package dev.cairn.server.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The bootstrap admin token: {@code CAIRN_ADMIN_TOKEN} when set, otherwise one generated on the
 * first start whose hash is kept in {@code admin-token.sha256} in the data dir. The secret of a
 * generated token is handed out exactly once, by {@link #resolve}.
 */
public final class AdminToken {

    public static final String HASH_FILE = "admin-token.sha256";

    private AdminToken() {}

    /**
     * The admin token, and the new secret when this call generated it (empty otherwise).
     *
     * @param fromEnvironment the value of {@code CAIRN_ADMIN_TOKEN}, blank when unset
     */
    public static Resolved resolve(String fromEnvironment, Path dataDir) {
        if (!fromEnvironment.isBlank()) {
            return new Resolved(admin(ApiToken.hash(fromEnvironment.trim())), Optional.empty());
        }
        Path file = dataDir.resolve(HASH_FILE);
        try {
            if (Files.exists(file)) {
                String hash = Files.readString(file, StandardCharsets.UTF_8).trim();
                return new Resolved(admin(hash), Optional.empty());
            }
            String secret = ApiToken.newSecret();
            Files.createDirectories(dataDir);
            Path tmp = file.resolveSibling(HASH_FILE + ".tmp");
            Files.writeString(tmp, ApiToken.hash(secret) + "\n", StandardCharsets.UTF_8);
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException ignored) {
                // not a POSIX file system: the hash alone is not a secret
            }
            Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return new Resolved(admin(ApiToken.hash(secret)), Optional.of(secret));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the admin token hash in " + file, e);
        }
    }

    private static ApiToken admin(String hash) {
        return new ApiToken(
                "admin", hash, Set.of(Role.ADMIN), List.of(ApiToken.ALL_NAMESPACES), Instant.EPOCH);
    }

    /** The admin token and, on the first start only, its secret. */
    public record Resolved(ApiToken token, Optional<String> newSecret) {}
}
