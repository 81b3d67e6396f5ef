package dev.cairn.memory;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A stored memory. Immutable; changes go through {@link MemoryLifecycle}, which returns new
 * instances.
 *
 * <p>No component is {@code null}: an absent conflict key or embedding model is "", a memory never
 * recalled has {@code lastRecalledAt == Instant.EPOCH} (use {@link #lastRecalled()}). Tags are
 * normalised by the constructor (see {@link TextNormalizer#normalizeTag}), de-duplicated and
 * sorted.
 */
public record Memory(
        String id,
        Scope scope,
        MemoryType type,
        Layer layer,
        MemoryStatus status,
        String content,
        String contentHash,
        List<String> tags,
        double confidence,
        double importance,
        String conflictKey,
        MemorySource source,
        Instant createdAt,
        Instant updatedAt,
        Instant expiresAt,
        Instant lastRecalledAt,
        long recalledCount,
        boolean disabled,
        boolean deleted,
        String embeddingModel) {

    /** Marker for "never recalled" in {@link #lastRecalledAt}. */
    public static final Instant NEVER = Instant.EPOCH;

    /** Longest allowed id. */
    public static final int MAX_ID_LENGTH = 128;

    /** Most tags one memory may carry. */
    public static final int MAX_TAGS = 64;

    private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");

    public Memory {
        Objects.requireNonNull(id, "id");
        if (id.isBlank() || id.length() > MAX_ID_LENGTH) {
            throw new IllegalArgumentException(
                    "illegal id length: " + id.length() + ", must be 1.." + MAX_ID_LENGTH);
        }
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(layer, "layer");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(content, "content");
        if (content.isBlank()) {
            throw new IllegalArgumentException("illegal content: blank, must have text");
        }
        Objects.requireNonNull(contentHash, "contentHash");
        if (!HASH.matcher(contentHash).matches()) {
            throw new IllegalArgumentException(
                    "illegal contentHash: '"
                            + Names.abbreviate(contentHash)
                            + "', must be 64 lower-case hex digits");
        }
        tags = normalizeTags(tags);
        checkUnit("confidence", confidence);
        checkUnit("importance", importance);
        conflictKey = Objects.requireNonNull(conflictKey, "conflictKey").strip();
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(lastRecalledAt, "lastRecalledAt");
        if (updatedAt.isBefore(createdAt)) {
            throw new IllegalArgumentException(
                    "illegal updatedAt: " + updatedAt + ", must be >= createdAt " + createdAt);
        }
        if (!expiresAt.isAfter(createdAt)) {
            throw new IllegalArgumentException(
                    "illegal expiresAt: " + expiresAt + ", must be > createdAt " + createdAt);
        }
        if (recalledCount < 0) {
            throw new IllegalArgumentException(
                    "illegal recalledCount: " + recalledCount + ", must be >= 0");
        }
        embeddingModel = Objects.requireNonNull(embeddingModel, "embeddingModel").strip();
    }

    /** When the memory was last recalled, empty if never. */
    public Optional<Instant> lastRecalled() {
        return lastRecalledAt.equals(NEVER) ? Optional.empty() : Optional.of(lastRecalledAt);
    }

    /** Whether the memory has a conflict key (memories with equal keys supersede each other). */
    public boolean hasConflictKey() {
        return !conflictKey.isEmpty();
    }

    /** Whether recall may return it: ACTIVE, not disabled, not deleted. */
    public boolean recallable() {
        return status.recallable() && !disabled && !deleted;
    }

    /** Whether it is past {@link #expiresAt} at {@code now}. */
    public boolean expiredAt(Instant now) {
        return !now.isBefore(expiresAt);
    }

    public Memory withStatus(MemoryStatus status, Instant updatedAt) {
        return new Memory(
                id,
                scope,
                type,
                layer,
                status,
                content,
                contentHash,
                tags,
                confidence,
                importance,
                conflictKey,
                source,
                createdAt,
                updatedAt,
                expiresAt,
                lastRecalledAt,
                recalledCount,
                disabled,
                deleted,
                embeddingModel);
    }

    public Memory withDisabled(boolean disabled, Instant updatedAt) {
        return new Memory(
                id,
                scope,
                type,
                layer,
                status,
                content,
                contentHash,
                tags,
                confidence,
                importance,
                conflictKey,
                source,
                createdAt,
                updatedAt,
                expiresAt,
                lastRecalledAt,
                recalledCount,
                disabled,
                deleted,
                embeddingModel);
    }

    public Memory withDeleted(boolean deleted, Instant updatedAt) {
        return new Memory(
                id,
                scope,
                type,
                layer,
                status,
                content,
                contentHash,
                tags,
                confidence,
                importance,
                conflictKey,
                source,
                createdAt,
                updatedAt,
                expiresAt,
                lastRecalledAt,
                recalledCount,
                disabled,
                deleted,
                embeddingModel);
    }

    /** This memory recalled once more at {@code at}. */
    public Memory recalled(Instant at) {
        return recalled(1, at);
    }

    /**
     * This memory recalled {@code times} more, the latest at {@code last}; the last recall time
     * never moves back.
     */
    public Memory recalled(int times, Instant last) {
        return new Memory(
                id,
                scope,
                type,
                layer,
                status,
                content,
                contentHash,
                tags,
                confidence,
                importance,
                conflictKey,
                source,
                createdAt,
                updatedAt,
                expiresAt,
                lastRecalledAt.isAfter(last) ? lastRecalledAt : last,
                recalledCount + times,
                disabled,
                deleted,
                embeddingModel);
    }

    static void checkUnit(String name, double value) {
        if (!(value >= 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal " + name + ": " + value + ", must be in [0, 1]");
        }
    }

    static List<String> normalizeTags(Collection<String> tags) {
        Objects.requireNonNull(tags, "tags");
        TreeSet<String> out = new TreeSet<>();
        for (String t : tags) {
            Objects.requireNonNull(t, "tag");
            String n = TextNormalizer.normalizeTag(t);
            if (!n.isEmpty()) {
                out.add(n);
            }
        }
        if (out.size() > MAX_TAGS) {
            throw new IllegalArgumentException(
                    "illegal tag count: " + out.size() + ", must be <= " + MAX_TAGS);
        }
        return List.copyOf(out);
    }
}
