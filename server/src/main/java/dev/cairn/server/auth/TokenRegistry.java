package dev.cairn.server.auth;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.cairn.server.DataDir;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tokens Cairn accepts: fixed ones from configuration and the environment, and managed ones
 * created through {@code /v1/tokens}, which are kept (hashes only) in {@code tokens.json} in the
 * data dir and written atomically. Thread-safe.
 */
public final class TokenRegistry {

    public static final String MANAGED_FILE = "tokens.json";

    private final Map<String, ApiToken> byHash = new ConcurrentHashMap<>();
    private final Map<String, ApiToken> managedByName = new ConcurrentHashMap<>();
    private final Path managedFile;

    private TokenRegistry(Collection<ApiToken> fixed, Path dataDir) {
        fixed.forEach(t -> byHash.put(t.sha256(), t));
        this.managedFile = dataDir.resolve(MANAGED_FILE);
        for (ApiToken t : loadManaged(managedFile)) {
            managedByName.put(t.name(), t);
            byHash.put(t.sha256(), t);
        }
    }

    /** A registry of {@code fixed} tokens plus the managed tokens kept in {@code dataDir}. */
    public static TokenRegistry create(Collection<ApiToken> fixed, Path dataDir) {
        return new TokenRegistry(fixed, dataDir);
    }

    /** The token whose secret this is. */
    public Optional<ApiToken> authenticate(String secret) {
        return Optional.ofNullable(byHash.get(ApiToken.hash(secret)));
    }

    /** Creates a managed token and answers its secret, which is not kept anywhere. */
    public synchronized String create(String name, Set<Role> roles, List<String> namespaces) {
        if (managedByName.containsKey(name)
                || byHash.values().stream().anyMatch(t -> t.name().equals(name))) {
            throw new IllegalStateException("token '" + name + "' exists");
        }
        String secret = ApiToken.newSecret();
        ApiToken token =
                new ApiToken(name, ApiToken.hash(secret), roles, namespaces, Instant.now());
        managedByName.put(name, token);
        try {
            persist();
        } catch (RuntimeException e) {
            managedByName.remove(name);
            throw e;
        }
        byHash.put(token.sha256(), token);
        return secret;
    }

    /**
     * Creates a token that lives only as long as this registry (this server process): kept in
     * memory, never in {@value #MANAGED_FILE}, listed like the others. Answers its secret.
     */
    public synchronized String createSession(
            String name, Set<Role> roles, List<String> namespaces) {
        if (byHash.values().stream().anyMatch(t -> t.name().equals(name))) {
            throw new IllegalStateException("token '" + name + "' exists");
        }
        String secret = ApiToken.newSecret();
        ApiToken token =
                new ApiToken(name, ApiToken.hash(secret), roles, namespaces, Instant.now());
        byHash.put(token.sha256(), token);
        return secret;
    }

    /** Every token, fixed and managed, by name. */
    public List<ApiToken> list() {
        return byHash.values().stream().sorted(Comparator.comparing(ApiToken::name)).toList();
    }

    /** Deletes a managed token; fixed tokens cannot be deleted through the API. */
    public synchronized boolean delete(String name) {
        ApiToken token = managedByName.remove(name);
        if (token == null) {
            if (byHash.values().stream().anyMatch(t -> t.name().equals(name))) {
                throw new IllegalStateException(
                        "token '" + name + "' comes from configuration and cannot be deleted");
            }
            return false;
        }
        byHash.remove(token.sha256());
        persist();
        return true;
    }

    private void persist() {
        List<ApiToken> tokens =
                managedByName.values().stream()
                        .sorted(Comparator.comparing(ApiToken::name))
                        .toList();
        try {
            Files.createDirectories(managedFile.getParent());
            Path tmp = managedFile.resolveSibling(MANAGED_FILE + ".tmp");
            Files.write(tmp, Json.bytes(tokens));
            DataDir.restrict(tmp);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            Files.move(
                    tmp,
                    managedFile,
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + managedFile, e);
        }
    }

    private static List<ApiToken> loadManaged(Path file) {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            return Json.MAPPER.readValue(file.toFile(), new TypeReference<List<ApiToken>>() {});
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read managed tokens from " + file, e);
        }
    }
}
