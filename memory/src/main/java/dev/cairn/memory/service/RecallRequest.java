package dev.cairn.memory.service;

import dev.cairn.memory.Layer;
import dev.cairn.memory.MemoryType;
import dev.cairn.retrieval.RetrieveRequest;
import dev.cairn.store.Namespace;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One recall (API.md {@code POST recall}). Empty {@code userId}/{@code agentId} mean no scope
 * filter; empty {@code types}/{@code layers} mean all. A recall without a user reads the whole
 * namespace only when {@code scope} says so or, with {@code scope} empty, the namespace's {@link
 * Namespace#recallScope()} does.
 *
 * @param limit most memories returned, 1..{@value #MAX_LIMIT}
 * @param threshold minimum cosine similarity of a memory to the query, in [-1, 1]
 * @param query the query, at most {@value #MAX_QUERY_CHARS} characters
 * @param maxTokens budget of the assembled context, 0..{@value #MAX_MAX_TOKENS}
 * @param timeout deadline of the candidate search, > 0
 * @param mode which candidate signals to use (HYBRID by default; the others for evaluation)
 */
public record RecallRequest(
        String namespace,
        String query,
        String userId,
        String agentId,
        int limit,
        double threshold,
        int maxTokens,
        Set<MemoryType> types,
        Set<Layer> layers,
        Duration timeout,
        RecallMode mode,
        Optional<Namespace.RecallScope> scope) {

    public static final int DEFAULT_LIMIT = 25;
    public static final int MAX_LIMIT = 200;

    /** Longest query, the same as retrieve's. */
    public static final int MAX_QUERY_CHARS = RetrieveRequest.MAX_QUERY_CHARS;

    /** Largest context budget. */
    public static final int MAX_MAX_TOKENS = 200_000;

    /**
     * Least cosine of a recalled memory to the query when the caller names none: API.md's 0.25, and
     * what {@code cairn eval locomo} measures, so the evaluated configuration is the served one.
     * The default encoder (bge-small-en-v1.5, query instruction) scores unrelated memories 0.26 to
     * 0.55 and answers 0.63 to 0.81 on a probe of 5 questions against 10 memories, so in a small
     * namespace unrelated memories come back after the related ones; on conversations a floor of
     * 0.5 drops answers that share few words with their question (evidence recall@10 on the
     * project's own chats 0.601 at 0.5 against 0.629 at 0.25, docs/memory.md). A caller that wants
     * only close memories passes a higher threshold.
     */
    public static final double DEFAULT_THRESHOLD = 0.25;

    public static final int DEFAULT_MAX_TOKENS = 3500;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(3000);
    public static final Duration MAX_TIMEOUT = Duration.ofSeconds(60);

    public RecallRequest {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(query, "query");
        if (query.isBlank()) {
            throw new IllegalArgumentException("illegal query: blank, must have text");
        }
        if (query.length() > MAX_QUERY_CHARS) {
            throw new IllegalArgumentException(
                    "illegal query length: "
                            + query.length()
                            + ", must be <= "
                            + MAX_QUERY_CHARS
                            + " characters");
        }
        userId = Objects.requireNonNull(userId, "userId").strip();
        agentId = Objects.requireNonNull(agentId, "agentId").strip();
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "illegal limit: " + limit + ", must be in [1, " + MAX_LIMIT + "]");
        }
        if (!(threshold >= -1.0 && threshold <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal threshold: " + threshold + ", must be in [-1, 1]");
        }
        if (maxTokens < 0 || maxTokens > MAX_MAX_TOKENS) {
            throw new IllegalArgumentException(
                    "illegal maxTokens: " + maxTokens + ", must be in [0, " + MAX_MAX_TOKENS + "]");
        }
        types = types.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(types));
        layers = layers.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(layers));
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException(
                    "illegal timeoutMs: "
                            + timeout.toMillis()
                            + ", must be in [1, "
                            + MAX_TIMEOUT.toMillis()
                            + "]");
        }
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(scope, "scope");
        if (scope.isPresent() && scope.get() == Namespace.RecallScope.USER && userId.isEmpty()) {
            throw new IllegalArgumentException(
                    "scope 'user' needs a userId: pass userId, or scope 'namespace' to recall every"
                            + " user's memories");
        }
    }

    /**
     * What this recall reads when it names no user: the whole namespace ({@link
     * Namespace.RecallScope#NAMESPACE}), or nothing without one ({@link
     * Namespace.RecallScope#USER}); empty leaves it to the namespace's setting.
     */
    public RecallRequest withRecallScope(Optional<Namespace.RecallScope> scope) {
        return new RecallRequest(
                namespace, query, userId, agentId, limit, threshold, maxTokens, types, layers,
                timeout, mode, scope);
    }

    /**
     * A recall with every default, of the whole namespace until {@link #withScope} names a user: a
     * caller in code says what it reads, so only the API's doors leave {@code scope} to the
     * namespace's setting.
     */
    public static RecallRequest of(String namespace, String query) {
        return new RecallRequest(
                namespace,
                query,
                "",
                "",
                DEFAULT_LIMIT,
                DEFAULT_THRESHOLD,
                DEFAULT_MAX_TOKENS,
                Set.of(),
                Set.of(),
                DEFAULT_TIMEOUT,
                RecallMode.HYBRID,
                Optional.of(Namespace.RecallScope.NAMESPACE));
    }

    public RecallRequest withScope(String userId, String agentId) {
        return new RecallRequest(
                namespace, query, userId, agentId, limit, threshold, maxTokens, types, layers,
                timeout, mode, scope);
    }

    public RecallRequest withLimit(int limit) {
        return new RecallRequest(
                namespace, query, userId, agentId, limit, threshold, maxTokens, types, layers,
                timeout, mode, scope);
    }

    public RecallRequest withThreshold(double threshold) {
        return new RecallRequest(
                namespace, query, userId, agentId, limit, threshold, maxTokens, types, layers,
                timeout, mode, scope);
    }

    public RecallRequest withMaxTokens(int maxTokens) {
        return new RecallRequest(
                namespace, query, userId, agentId, limit, threshold, maxTokens, types, layers,
                timeout, mode, scope);
    }

    public RecallRequest withTypes(Set<MemoryType> types) {
        return new RecallRequest(
                namespace, query, userId, agentId, limit, threshold, maxTokens, types, layers,
                timeout, mode, scope);
    }

    public RecallRequest withLayers(Set<Layer> layers) {
        return new RecallRequest(
                namespace, query, userId, agentId, limit, threshold, maxTokens, types, layers,
                timeout, mode, scope);
    }

    public RecallRequest withTimeout(Duration timeout) {
        return new RecallRequest(
                namespace, query, userId, agentId, limit, threshold, maxTokens, types, layers,
                timeout, mode, scope);
    }

    public RecallRequest withMode(RecallMode mode) {
        return new RecallRequest(
                namespace, query, userId, agentId, limit, threshold, maxTokens, types, layers,
                timeout, mode, scope);
    }
}
