package dev.cairn.memory;

import dev.cairn.safety.WriteGuard;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A memory to be written, before it has an id or timestamps. {@code ttl} of {@link Duration#ZERO}
 * means the type's default TTL. Use {@link #of} and the {@code with...} methods for the optional
 * parts.
 */
public record NewMemory(
        Scope scope,
        MemoryType type,
        String content,
        Layer layer,
        List<String> tags,
        double confidence,
        double importance,
        String conflictKey,
        MemorySource source,
        Duration ttl) {

    /** Confidence of a memory written without one. */
    public static final double DEFAULT_CONFIDENCE = 0.8;

    /** Importance of a memory written without one. */
    public static final double DEFAULT_IMPORTANCE = 0.5;

    /** Longest allowed TTL. */
    public static final Duration MAX_TTL = Duration.ofDays(3650);

    public NewMemory {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(content, "content");
        if (content.isBlank()) {
            throw new IllegalArgumentException("illegal content: blank, must have text");
        }
        Objects.requireNonNull(layer, "layer");
        // Checked before normalising: lower case would hide most secret formats.
        tags.forEach(t -> WriteGuard.refuseSecret(Objects.requireNonNull(t, "tag"), "tags"));
        tags = Memory.normalizeTags(tags);
        Memory.checkUnit("confidence", confidence);
        Memory.checkUnit("importance", importance);
        conflictKey = Objects.requireNonNull(conflictKey, "conflictKey").strip();
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.compareTo(MAX_TTL) > 0) {
            throw new IllegalArgumentException(
                    "illegal ttl: "
                            + ttl.toDays()
                            + " days, must be 0 (type default).."
                            + MAX_TTL.toDays());
        }
    }

    /** A memory with defaults: the type's layer and TTL, no tags, no conflict key, API source. */
    public static NewMemory of(Scope scope, MemoryType type, String content) {
        return new NewMemory(
                scope,
                type,
                content,
                type.defaultLayer(),
                List.of(),
                DEFAULT_CONFIDENCE,
                DEFAULT_IMPORTANCE,
                "",
                MemorySource.api(),
                Duration.ZERO);
    }

    public NewMemory withLayer(Layer layer) {
        return new NewMemory(
                scope,
                type,
                content,
                layer,
                tags,
                confidence,
                importance,
                conflictKey,
                source,
                ttl);
    }

    public NewMemory withTags(List<String> tags) {
        return new NewMemory(
                scope,
                type,
                content,
                layer,
                tags,
                confidence,
                importance,
                conflictKey,
                source,
                ttl);
    }

    public NewMemory withConfidence(double confidence) {
        return new NewMemory(
                scope,
                type,
                content,
                layer,
                tags,
                confidence,
                importance,
                conflictKey,
                source,
                ttl);
    }

    public NewMemory withImportance(double importance) {
        return new NewMemory(
                scope,
                type,
                content,
                layer,
                tags,
                confidence,
                importance,
                conflictKey,
                source,
                ttl);
    }

    public NewMemory withConflictKey(String conflictKey) {
        return new NewMemory(
                scope,
                type,
                content,
                layer,
                tags,
                confidence,
                importance,
                conflictKey,
                source,
                ttl);
    }

    public NewMemory withSource(MemorySource source) {
        return new NewMemory(
                scope,
                type,
                content,
                layer,
                tags,
                confidence,
                importance,
                conflictKey,
                source,
                ttl);
    }

    /** With a TTL in days; 0 means the type default. */
    public NewMemory withTtlDays(int days) {
        if (days < 0) {
            throw new IllegalArgumentException(
                    "illegal ttlDays: " + days + ", must be 0 (type default).." + MAX_TTL.toDays());
        }
        return new NewMemory(
                scope,
                type,
                content,
                layer,
                tags,
                confidence,
                importance,
                conflictKey,
                source,
                Duration.ofDays(days));
    }

    /** The TTL that applies: {@link #ttl} or the type default when zero. */
    public Duration effectiveTtl() {
        return ttl.isZero() ? type.defaultTtl() : ttl;
    }

    /** Hex SHA-256 of the normalised content. */
    public String contentHash() {
        return TextNormalizer.contentHash(content);
    }
}
