package dev.cairn.memory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Pure lifecycle policy for memories: creation, expiry, status transitions, supersession,
 * de-duplication and reinforcement. It reads no clock and touches no store: callers pass {@code
 * now} and persist what it returns. Immutable and thread-safe.
 *
 * <p>Reinforcement (a duplicate or near-duplicate write) combines confidences as independent
 * evidence, {@code c = 1 - (1 - a)(1 - b)}, keeps the larger importance, unites tags, keeps the
 * older memory's content, id, creation time and recall count, bumps {@code updatedAt} and extends
 * {@code expiresAt} to {@code max(old, now + ttl)}. A STALE memory so reinforced becomes ACTIVE
 * again (see {@link MemoryStatus}).
 */
public final class MemoryLifecycle {

    /** Cosine similarity from which an ACTIVE same-type same-scope memory absorbs a new one. */
    public static final double DEFAULT_MERGE_SIMILARITY = 0.92;

    /** Configuration: {@code mergeSimilarity} in (0, 1]. */
    public record Config(double mergeSimilarity) {
        public Config {
            if (!(mergeSimilarity > 0.0 && mergeSimilarity <= 1.0)) {
                throw new IllegalArgumentException(
                        "illegal mergeSimilarity: " + mergeSimilarity + ", must be in (0, 1]");
            }
        }

        public static Config defaults() {
            return new Config(DEFAULT_MERGE_SIMILARITY);
        }
    }

    private final Config config;

    private MemoryLifecycle(Config config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    public static MemoryLifecycle create(Config config) {
        return new MemoryLifecycle(config);
    }

    public static MemoryLifecycle defaults() {
        return new MemoryLifecycle(Config.defaults());
    }

    public Config config() {
        return config;
    }

    /**
     * When a memory of {@code type} written at {@code from} with {@code ttl} (0 = default) expires.
     */
    public static Instant expiresAt(MemoryType type, Duration ttl, Instant from) {
        Duration effective = ttl.isZero() ? type.defaultTtl() : ttl;
        if (effective.isNegative()) {
            throw new IllegalArgumentException("illegal ttl: " + effective + ", must be >= 0");
        }
        return from.plus(effective);
    }

    /** A new ACTIVE memory with id {@code id}, created at {@code now}. */
    public Memory create(String id, NewMemory draft, String embeddingModel, Instant now) {
        return new Memory(
                id,
                draft.scope(),
                draft.type(),
                draft.layer(),
                MemoryStatus.ACTIVE,
                draft.content(),
                draft.contentHash(),
                draft.tags(),
                draft.confidence(),
                draft.importance(),
                draft.conflictKey(),
                draft.source(),
                now,
                now,
                expiresAt(draft.type(), draft.ttl(), now),
                Memory.NEVER,
                0,
                false,
                false,
                embeddingModel);
    }

    /**
     * A candidate that failed the quality gate, kept as REJECTED for audit and never recalled.
     * REJECTED is an initial status, so no transition is recorded; the gate's reason travels with
     * the extraction answer.
     */
    public Memory createRejected(String id, NewMemory draft, Instant now) {
        return create(id, draft, "", now).withStatus(MemoryStatus.REJECTED, now);
    }

    /**
     * Moves {@code memory} to {@code to}.
     *
     * @throws IllegalStateException naming from and to when the transition is not allowed
     *     <p>An {@code at} before the memory's {@code updatedAt} is clamped to it, so timestamps
     *     never go backwards.
     * @throws IllegalArgumentException when invalidating without a reason
     */
    public Transitioned transition(
            Memory memory, MemoryStatus to, Instant at, String actor, String reason) {
        memory.status().checkTransitionTo(to);
        if (to == MemoryStatus.INVALIDATED && reason.isBlank()) {
            throw new IllegalArgumentException("illegal reason: blank, invalidation must say why");
        }
        Instant when = at.isBefore(memory.updatedAt()) ? memory.updatedAt() : at;
        Memory next = memory.withStatus(to, when);
        return new Transitioned(
                next,
                List.of(
                        new StatusTransition(
                                memory.id(), memory.status(), to, when, actor, reason)));
    }

    /** Invalidates on request. */
    public Transitioned invalidate(Memory memory, Instant at, String actor, String reason) {
        return transition(memory, MemoryStatus.INVALIDATED, at, actor, reason);
    }

    /** ACTIVE -> STALE when past its TTL at {@code now}; empty when nothing is due. */
    public Optional<Transitioned> expireIfDue(Memory memory, Instant now) {
        if (memory.status() != MemoryStatus.ACTIVE || !memory.expiredAt(now)) {
            return Optional.empty();
        }
        return Optional.of(
                transition(memory, MemoryStatus.STALE, now, StatusTransition.SYSTEM_ACTOR, "ttl"));
    }

    /**
     * Memories among {@code existing} that {@code newer} supersedes: same scope, same non-empty
     * conflict key, ACTIVE or STALE, not {@code newer} itself. Sorted by id.
     */
    public List<Memory> supersededBy(Memory newer, Collection<Memory> existing) {
        if (!newer.hasConflictKey()) {
            return List.of();
        }
        return existing.stream()
                .filter(m -> !m.id().equals(newer.id()))
                .filter(m -> m.scope().equals(newer.scope()))
                .filter(m -> m.conflictKey().equals(newer.conflictKey()))
                .filter(m -> m.status() == MemoryStatus.ACTIVE || m.status() == MemoryStatus.STALE)
                .sorted(Comparator.comparing(Memory::id))
                .toList();
    }

    /**
     * {@code older} -> SUPERSEDED because of {@code newer}.
     *
     * @throws IllegalArgumentException when they do not share scope and a non-empty conflict key
     * @throws IllegalStateException when {@code older} cannot become SUPERSEDED
     */
    public Transitioned supersede(Memory older, Memory newer, Instant at) {
        if (!newer.hasConflictKey()
                || !older.conflictKey().equals(newer.conflictKey())
                || !older.scope().equals(newer.scope())) {
            throw new IllegalArgumentException(
                    "illegal supersession of "
                            + older.id()
                            + " by "
                            + newer.id()
                            + ": must share scope and a non-empty conflictKey");
        }
        return transition(
                older,
                MemoryStatus.SUPERSEDED,
                at,
                StatusTransition.SYSTEM_ACTOR,
                "superseded by " + newer.id());
    }

    /**
     * Decides whether {@code incoming} is new, an exact duplicate, or a near-duplicate to merge.
     *
     * <ol>
     *   <li>Exact: same scope, same type, same normalised-text hash, ACTIVE or STALE, not deleted
     *       -> {@link DedupDecision.Duplicate} (the lowest id if several).
     *   <li>Near: same scope, same type, ACTIVE, neither disabled nor deleted, no differing
     *       non-empty conflict keys, the same numbers, not two different turns of a conversation,
     *       cosine >= {@link Config#mergeSimilarity()} -> {@link DedupDecision.Merge} with the most
     *       similar (ties: lowest id). Two turns are two things that were said: merging one into
     *       the other would lose its words, and with them what makes it findable.
     *   <li>Otherwise {@link DedupDecision.Insert}.
     * </ol>
     *
     * @param neighbours candidates from the store with their cosine similarity to {@code incoming};
     *     exact-hash matches may be passed with any cosine
     */
    public DedupDecision decide(NewMemory incoming, Collection<Neighbour> neighbours) {
        String hash = incoming.contentHash();
        Optional<Memory> exact =
                neighbours.stream()
                        .map(Neighbour::memory)
                        .filter(m -> m.scope().equals(incoming.scope()))
                        .filter(m -> m.type() == incoming.type())
                        .filter(m -> !m.deleted())
                        .filter(
                                m ->
                                        m.status() == MemoryStatus.ACTIVE
                                                || m.status() == MemoryStatus.STALE)
                        .filter(m -> m.contentHash().equals(hash))
                        .min(Comparator.comparing(Memory::id));
        if (exact.isPresent()) {
            return new DedupDecision.Duplicate(exact.get());
        }
        Optional<Neighbour> near =
                neighbours.stream()
                        .filter(n -> n.memory().scope().equals(incoming.scope()))
                        .filter(n -> n.memory().type() == incoming.type())
                        .filter(n -> n.memory().recallable())
                        .filter(
                                n ->
                                        compatibleKeys(
                                                n.memory().conflictKey(), incoming.conflictKey()))
                        .filter(n -> !differentTurns(n.memory().source(), incoming.source()))
                        .filter(n -> n.cosine() >= config.mergeSimilarity())
                        .filter(n -> sameNumbers(n.memory().content(), incoming.content()))
                        .min(
                                Comparator.comparingDouble(Neighbour::cosine)
                                        .reversed()
                                        .thenComparing(n -> n.memory().id()));
        if (near.isPresent()) {
            return new DedupDecision.Merge(
                    near.get().memory(), Math.max(-1.0, Math.min(1.0, near.get().cosine())));
        }
        return new DedupDecision.Insert();
    }

    private static final java.util.regex.Pattern NUMBER = Pattern.compile("\\d+(?:[.,:]\\d+)*");

    /**
     * Whether two texts state the same numbers (ports, versions, amounts, limits): "the limit is
     * 500" and "the limit is 50" are close in meaning but must not merge, or one fact is lost.
     */
    static boolean sameNumbers(String a, String b) {
        return numbers(a).equals(numbers(b));
    }

    private static List<String> numbers(String text) {
        List<String> out = new ArrayList<>();
        java.util.regex.Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        out.sort(null);
        return out;
    }

    /**
     * Reinforces {@code existing} with {@code incoming} (duplicate or merge); see the class Javadoc
     * for the formula. STALE becomes ACTIVE with a recorded transition.
     *
     * @throws IllegalStateException when {@code existing} is neither ACTIVE nor STALE
     */
    public Transitioned reinforce(Memory existing, NewMemory incoming, Instant now) {
        if (existing.status() != MemoryStatus.ACTIVE && existing.status() != MemoryStatus.STALE) {
            throw new IllegalStateException(
                    "illegal reinforcement of a "
                            + existing.status()
                            + " memory, must be ACTIVE or STALE");
        }
        Instant when = now.isBefore(existing.updatedAt()) ? existing.updatedAt() : now;
        List<String> tags = new ArrayList<>(existing.tags());
        tags.addAll(incoming.tags());
        Instant extended = expiresAt(incoming.type(), incoming.ttl(), when);
        Instant expires = extended.isAfter(existing.expiresAt()) ? extended : existing.expiresAt();
        Memory merged =
                new Memory(
                        existing.id(),
                        existing.scope(),
                        existing.type(),
                        existing.layer(),
                        MemoryStatus.ACTIVE,
                        existing.content(),
                        existing.contentHash(),
                        tags,
                        reinforceConfidence(existing.confidence(), incoming.confidence()),
                        Math.max(existing.importance(), incoming.importance()),
                        existing.conflictKey().isEmpty()
                                ? incoming.conflictKey()
                                : existing.conflictKey(),
                        existing.source(),
                        existing.createdAt(),
                        when,
                        expires,
                        existing.lastRecalledAt(),
                        existing.recalledCount(),
                        existing.disabled(),
                        existing.deleted(),
                        existing.embeddingModel());
        List<StatusTransition> transitions =
                existing.status() == MemoryStatus.STALE
                        ? List.of(
                                new StatusTransition(
                                        existing.id(),
                                        MemoryStatus.STALE,
                                        MemoryStatus.ACTIVE,
                                        when,
                                        StatusTransition.SYSTEM_ACTOR,
                                        "reinforced"))
                        : List.of();
        return new Transitioned(merged, transitions);
    }

    /** Independent-evidence combination {@code 1 - (1 - a)(1 - b)}, both in [0, 1]. */
    public static double reinforceConfidence(double a, double b) {
        Memory.checkUnit("a", a);
        Memory.checkUnit("b", b);
        return Math.min(1.0, 1.0 - (1.0 - a) * (1.0 - b));
    }

    /** Both taken from a conversation, from different turns (references). */
    private static boolean differentTurns(MemorySource a, MemorySource b) {
        return a.kind() == MemorySource.Kind.CONVERSATION
                && b.kind() == MemorySource.Kind.CONVERSATION
                && !a.reference().equals(b.reference());
    }

    private static boolean compatibleKeys(String a, String b) {
        return a.isEmpty() || b.isEmpty() || a.equals(b);
    }
}
