package dev.cairn.retrieval.feedback;

import dev.cairn.retrieval.RetrieveRequest;
import dev.cairn.store.Identifiers;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * One recorded relevance judgment: for {@code query}, how relevant {@code target} is.
 *
 * @param id assigned when recorded ({@code fb_} + creation time in hex + random), time-ordered
 * @param query the question as asked, not blank, at most {@value RetrieveRequest#MAX_QUERY_CHARS}
 *     characters
 * @param target what was judged: a document, a chunk or a memory
 * @param grade 0 (not relevant) to {@value #MAX_GRADE} (highly relevant), as TREC qrels grade
 * @param source who judged
 * @param createdAt when it was recorded
 */
public record Judgment(
        String id, String query, Target target, int grade, Source source, Instant createdAt) {

    /** The highest grade. */
    public static final int MAX_GRADE = 3;

    public Judgment {
        Objects.requireNonNull(id, "id");
        if (query == null || query.isBlank()) {
            throw new IllegalArgumentException("query must not be empty");
        }
        if (query.length() > RetrieveRequest.MAX_QUERY_CHARS) {
            throw new IllegalArgumentException(
                    "illegal query length: "
                            + query.length()
                            + ", must be <= "
                            + RetrieveRequest.MAX_QUERY_CHARS);
        }
        Objects.requireNonNull(target, "target");
        if (grade < 0 || grade > MAX_GRADE) {
            throw new IllegalArgumentException(
                    "illegal grade: " + grade + ", must be in [0, " + MAX_GRADE + "]");
        }
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** A judgment to record: its id and time are assigned by {@link FeedbackLog#record}. */
    public static Judgment draft(String query, Target target, int grade, Source source) {
        return new Judgment("", query, target, grade, source, Instant.EPOCH);
    }

    /** Whether the target was judged relevant (grade {@code >= 1}). */
    public boolean relevant() {
        return grade > 0;
    }

    /**
     * What a judgment is about.
     *
     * @param kind a document, a chunk or a memory
     * @param id its id, in {@link Identifiers}' alphabet
     */
    public record Target(Kind kind, String id) {

        public Target {
            Objects.requireNonNull(kind, "kind");
            Identifiers.requireId(id, kind.wireName() + "Id");
        }

        /** The document this target belongs to; empty for a memory. */
        public java.util.Optional<String> documentId() {
            return switch (kind) {
                case DOCUMENT -> java.util.Optional.of(id);
                case CHUNK ->
                        java.util.Optional.of(
                                dev.cairn.retrieval.store.StoredChunk.documentIdOf(id));
                case MEMORY -> java.util.Optional.empty();
            };
        }
    }

    /** Kinds of judged things. */
    public enum Kind {
        DOCUMENT,
        CHUNK,
        MEMORY;

        /** {@code document}, {@code chunk} or {@code memory}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Who judged. */
    public enum Source {
        /** An evaluator's qrels (e.g. {@code cairn eval beir --tune-qrels}). */
        EVALUATOR,
        /** A {@code judge} verdict that marked evidence as supporting. */
        JUDGE,
        /** An operator (the console's thumbs). */
        OPERATOR;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Parses {@code evaluator|judge|operator}, naming the legal values on error. */
        public static Source parse(String name) {
            try {
                return valueOf(name.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "unknown source: '"
                                + name
                                + "', must be one of evaluator, judge, operator");
            }
        }
    }
}
