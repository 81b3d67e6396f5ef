package dev.cairn.retrieval.ingest;

import java.util.Locale;
import java.util.Optional;

/** Relation types a document can declare in its front matter (API.md). */
public enum RelationType {
    GOVERNS,
    SUPERSEDES,
    DEPENDS_ON,
    PART_OF,
    RELATED_TO,
    CONTRADICTS,
    MENTIONS;

    /** The front-matter key, e.g. {@code depends_on}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The relation type of a front-matter key, if it is one. */
    public static Optional<RelationType> ofKey(String key) {
        for (RelationType t : values()) {
            if (t.key().equals(key)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
