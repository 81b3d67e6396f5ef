package dev.cairn.server.auth;

import dev.cairn.store.StoredTokens;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The tokens Cairn accepts: fixed ones from configuration and the environment, session tokens that
 * live as long as this process ({@link #createSession}), and managed ones created through {@code
 * /v1/tokens}, which are kept (hashes only) in the store ({@link StoredTokens}) so that every
 * server on one database accepts them.
 *
 * <p>The managed tokens are held in memory and taken as current for {@link #RECHECK}: after that,
 * the next authentication reads the store's token revision (one row) and rereads the tokens only
 * when it moved. A token deleted on any server is therefore refused here within {@link #RECHECK}. A
 * hash this server does not hold is looked up in the store at once, so a token made on another
 * server a moment ago is accepted on its first use here (and the tokens are reread then, so its
 * later uses cost no query); hashes found nowhere are remembered (at most {@link
 * #UNKNOWN_HASHES_KEPT}, forgotten whenever the tokens change), so a client retrying a revoked or
 * mistyped token costs no query per request. Thread-safe.
 */
public final class TokenRegistry {

    /**
     * How long the managed tokens read from the store are taken as current before its revision is
     * read again: the bound on how long another server's delete takes to reach this one. Two
     * seconds, as for every other write made on one server and read on another ({@code
     * TwoServersOnePostgresTest}); it costs one single-row read per server per two seconds.
     */
    public static final Duration RECHECK = Duration.ofSeconds(2);

    /** The most hashes remembered as unknown; the set is emptied when full. */
    static final int UNKNOWN_HASHES_KEPT = 4096;

    /** The managed tokens as last read, by hash, with the revision they were read at. */
    private record Managed(long revision, Map<String, ApiToken> byHash, long checkedNanos) {

        Managed checkedAt(long nanos) {
            return new Managed(revision, byHash, nanos);
        }
    }

    private final Map<String, ApiToken> fixedByHash;
    private final Map<String, ApiToken> sessionsByHash = new ConcurrentHashMap<>();
    private final Set<String> unknownHashes = ConcurrentHashMap.newKeySet();
    private final StoredTokens stored;
    private final Object lock = new Object();
    private volatile Managed managed;

    private TokenRegistry(Collection<ApiToken> fixed, StoredTokens stored) {
        this.fixedByHash =
                fixed.stream().collect(Collectors.toUnmodifiableMap(ApiToken::sha256, t -> t));
        this.stored = stored;
        this.managed = reread();
    }

    /** A registry of {@code fixed} tokens plus the managed tokens kept in {@code stored}. */
    public static TokenRegistry create(Collection<ApiToken> fixed, StoredTokens stored) {
        return new TokenRegistry(fixed, stored);
    }

    /** The token whose secret this is. */
    public Optional<ApiToken> authenticate(String secret) {
        String hash = ApiToken.hash(secret);
        ApiToken local = fixedByHash.get(hash);
        if (local == null) {
            local = sessionsByHash.get(hash);
        }
        if (local != null) {
            return Optional.of(local);
        }
        ApiToken known = current().byHash().get(hash);
        if (known != null) {
            return Optional.of(known);
        }
        if (unknownHashes.contains(hash)) {
            return Optional.empty();
        }
        // made on another server since this one last reread the tokens
        Optional<ApiToken> found = stored.byHash(hash).map(ApiToken::of);
        if (found.isEmpty()) {
            if (unknownHashes.size() >= UNKNOWN_HASHES_KEPT) {
                unknownHashes.clear();
            }
            unknownHashes.add(hash);
        } else {
            holdAfterLookup(hash);
        }
        return found;
    }

    /**
     * Rereads the managed tokens once a hash was found in the store but not among them, so the
     * token's next requests are answered from memory: without it each one would query the store
     * until the next {@link #RECHECK}. Concurrent first requests with one token reread once.
     */
    private void holdAfterLookup(String hash) {
        synchronized (lock) {
            if (!managed.byHash().containsKey(hash)) {
                managed = reread();
            }
        }
    }

    /**
     * Creates a managed token and answers its secret, which is not kept anywhere.
     *
     * @throws IllegalStateException when a token of that name exists, here or in the store
     */
    public String create(String name, Set<Role> roles, List<String> namespaces) {
        synchronized (lock) {
            requireLocalNameFree(name);
            String secret = ApiToken.newSecret();
            ApiToken token =
                    new ApiToken(
                            name,
                            ApiToken.hash(secret),
                            roles,
                            namespaces,
                            Instant.now().truncatedTo(ChronoUnit.MILLIS));
            stored.insert(token.stored());
            managed = reread();
            return secret;
        }
    }

    /**
     * Creates a token that lives only as long as this registry (this server process): kept in
     * memory, never in the store, listed like the others. Answers its secret.
     */
    public String createSession(String name, Set<Role> roles, List<String> namespaces) {
        synchronized (lock) {
            requireLocalNameFree(name);
            managed = reread();
            if (managed.byHash().values().stream().anyMatch(t -> t.name().equals(name))) {
                throw exists(name);
            }
            String secret = ApiToken.newSecret();
            ApiToken token =
                    new ApiToken(name, ApiToken.hash(secret), roles, namespaces, Instant.now());
            sessionsByHash.put(token.sha256(), token);
            return secret;
        }
    }

    /** Every token, fixed, session and managed (as the store holds them now), by name. */
    public List<ApiToken> list() {
        Managed now;
        synchronized (lock) {
            now = reread();
            managed = now;
        }
        return Stream.of(fixedByHash.values(), sessionsByHash.values(), now.byHash().values())
                .flatMap(Collection::stream)
                .sorted(Comparator.comparing(ApiToken::name))
                .toList();
    }

    /**
     * Deletes a managed token, which every server then refuses (this one at once, the others within
     * {@link #RECHECK}); false when there is none of that name.
     *
     * @throws IllegalStateException for a fixed or session token, which cannot be deleted here
     */
    public boolean delete(String name) {
        synchronized (lock) {
            if (stored.delete(name)) {
                managed = reread();
                return true;
            }
            if (localNames().anyMatch(name::equals)) {
                throw new IllegalStateException(
                        "token '" + name + "' comes from configuration and cannot be deleted");
            }
            return false;
        }
    }

    /** The managed tokens, read again when the last read is older than {@link #RECHECK}. */
    private Managed current() {
        Managed last = managed;
        if (System.nanoTime() - last.checkedNanos() < RECHECK.toNanos()) {
            return last;
        }
        synchronized (lock) {
            last = managed;
            long now = System.nanoTime();
            if (now - last.checkedNanos() < RECHECK.toNanos()) {
                return last;
            }
            Managed fresh = stored.revision() == last.revision() ? last.checkedAt(now) : reread();
            managed = fresh;
            return fresh;
        }
    }

    /**
     * Reads the revision, then the tokens: a change between the two reads shows as a newer revision
     * at the next check, which reads them again.
     */
    private Managed reread() {
        long checked = System.nanoTime();
        long revision = stored.revision();
        Map<String, ApiToken> byHash =
                stored.all().stream()
                        .map(ApiToken::of)
                        .collect(
                                Collectors.toUnmodifiableMap(
                                        ApiToken::sha256, Function.identity()));
        // a hash looked for in vain may belong to a token made since (say imported at another
        // server's start from its tokens.json)
        unknownHashes.clear();
        return new Managed(revision, byHash, checked);
    }

    private void requireLocalNameFree(String name) {
        if (localNames().anyMatch(name::equals)) {
            throw exists(name);
        }
    }

    private Stream<String> localNames() {
        return Stream.concat(fixedByHash.values().stream(), sessionsByHash.values().stream())
                .map(ApiToken::name);
    }

    private static IllegalStateException exists(String name) {
        return new IllegalStateException("token '" + name + "' exists");
    }
}
