package dev.cairn.judge;

import dev.cairn.retrieval.store.Authority;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One named rule of a {@link Policy}. The kinds are a closed set; each record carries its own
 * settings and validates them. Every rule has a {@code weight > 0} in {@link
 * Judgement#policyCompliance()}.
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface PolicyRule {

    /** The rule's name, unique in its policy, reported in violations. */
    String name();

    /** The rule's weight, {@code > 0}. */
    double weight();

    /** The rule's kind. */
    Kind kind();

    /** Default weight of a rule. */
    double DEFAULT_WEIGHT = 1.0;

    /** The kinds of rule, with their document spelling. */
    enum Kind {
        /** A procedural answer cites at least one authoritative evidence item. */
        CITE_AUTHORITATIVE("cite-authoritative"),
        /** The answer contains no secrets. */
        NO_SECRETS("no-secrets"),
        /** When retrieval planned to defer, the answer asserts nothing or hedges. */
        DEFER_WHEN_PLANNED("defer-when-planned"),
        /** The answer has at most so many characters and claims. */
        MAX_LENGTH("max-length"),
        /** The answer contains none of the given phrases (case-insensitive). */
        FORBIDDEN_PHRASES("forbidden-phrases");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        /** The document spelling, e.g. {@code cite-authoritative}. */
        public String id() {
            return id;
        }

        /**
         * Parses the document spelling.
         *
         * @throws IllegalArgumentException naming the legal kinds
         */
        public static Kind parse(String text) {
            for (Kind k : values()) {
                if (k.id.equalsIgnoreCase(String.valueOf(text).strip())) {
                    return k;
                }
            }
            throw new IllegalArgumentException(
                    "illegal rule kind: '"
                            + text
                            + "', must be one of "
                            + Arrays.stream(values()).map(Kind::id).toList());
        }
    }

    /**
     * A procedural answer (a numbered list, or two or more sentences opening with an imperative
     * verb) must cite at least one evidence item of {@link Authority#AUTHORITATIVE} authority.
     */
    record CiteAuthoritative(String name, double weight) implements PolicyRule {
        public CiteAuthoritative {
            requireValid(name, weight);
        }

        @Override
        public Kind kind() {
            return Kind.CITE_AUTHORITATIVE;
        }
    }

    /** The answer must contain nothing the {@link SecretDetector} finds. */
    record NoSecrets(String name, double weight) implements PolicyRule {
        public NoSecrets {
            requireValid(name, weight);
        }

        @Override
        public Kind kind() {
            return Kind.NO_SECRETS;
        }
    }

    /**
     * When the retrieval plan was {@link RetrievalPlan#DEFER defer}, the answer must make no claims
     * or contain deferral phrasing ("I could not find ...", "the documentation does not say ...").
     * Passes for every other plan.
     */
    record DeferWhenPlanned(String name, double weight) implements PolicyRule {
        public DeferWhenPlanned {
            requireValid(name, weight);
        }

        @Override
        public Kind kind() {
            return Kind.DEFER_WHEN_PLANNED;
        }
    }

    /**
     * The answer has at most {@code maxChars} characters (code points) and {@code maxClaims}
     * claims.
     *
     * @param maxChars {@code >= 1}
     * @param maxClaims {@code >= 0}
     */
    record MaxLength(String name, double weight, int maxChars, int maxClaims)
            implements PolicyRule {

        /** Default character limit of the built-in policy. */
        public static final int DEFAULT_MAX_CHARS = 16_000;

        /** Default claim limit of the built-in policy. */
        public static final int DEFAULT_MAX_CLAIMS = 100;

        public MaxLength {
            requireValid(name, weight);
            if (maxChars < 1) {
                throw new IllegalArgumentException(
                        "illegal maxChars: " + maxChars + ", must be >= 1");
            }
            if (maxClaims < 0) {
                throw new IllegalArgumentException(
                        "illegal maxClaims: " + maxClaims + ", must be >= 0");
            }
        }

        @Override
        public Kind kind() {
            return Kind.MAX_LENGTH;
        }
    }

    /**
     * The answer contains none of {@code phrases}, compared case-insensitively with runs of
     * whitespace treated as one space.
     *
     * @param phrases at least one, none blank
     */
    record ForbiddenPhrases(String name, double weight, List<String> phrases)
            implements PolicyRule {
        public ForbiddenPhrases {
            requireValid(name, weight);
            phrases = List.copyOf(phrases);
            if (phrases.isEmpty() || phrases.stream().anyMatch(String::isBlank)) {
                throw new IllegalArgumentException(
                        "illegal phrases: " + phrases + ", must be at least one, none blank");
            }
        }

        @Override
        public Kind kind() {
            return Kind.FORBIDDEN_PHRASES;
        }

        /** The phrases lower-cased with whitespace collapsed, as matched. */
        List<String> normalised() {
            return phrases.stream().map(PolicyRule::normalise).toList();
        }
    }

    private static void requireValid(String name, double weight) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException(
                    "illegal rule name: '" + name + "', must not be blank");
        }
        if (!(weight > 0) || !Double.isFinite(weight)) {
            throw new IllegalArgumentException(
                    "illegal weight: "
                            + weight
                            + " of rule '"
                            + name
                            + "', must be > 0 and finite");
        }
    }

    /** Lower-cases and collapses whitespace. */
    static String normalise(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").strip();
    }
}
