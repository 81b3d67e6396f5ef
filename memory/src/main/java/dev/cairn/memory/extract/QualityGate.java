package dev.cairn.memory.extract;

import dev.cairn.memory.Scope;
import dev.cairn.safety.RuleHit;
import dev.cairn.safety.SafetyResult;
import dev.cairn.safety.WriteSafety;
import dev.cairn.safety.WriteTarget;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Decides what happens to an extracted {@link Candidate}, in this order:
 *
 * <ol>
 *   <li>{@link WriteSafety} BLOCK -> REJECT ("blocked: &lt;rule&gt;");
 *   <li>content length outside {@code [minLength, maxLength]} characters -> REJECT;
 *   <li>confidence below {@code minConfidence} -> REJECT;
 *   <li>the caller's duplicate predicate holds -> REJECT ("duplicate");
 *   <li>WriteSafety FLAG -> PROPOSE, for a person to review;
 *   <li>confidence below {@code storeConfidence} -> PROPOSE (accepted, but not sure enough to store
 *       unreviewed);
 *   <li>otherwise the namespace's {@link AcceptMode}: STORE straight to durable memory, or PROPOSE.
 * </ol>
 *
 * Reasons never contain the candidate's content. Immutable, thread-safe if the duplicate predicate
 * is.
 */
public final class QualityGate {

    public static final double DEFAULT_MIN_CONFIDENCE = 0.6;

    /** Confidence from which an accepted candidate may be stored without review. */
    public static final double DEFAULT_STORE_CONFIDENCE = 0.7;

    public static final int DEFAULT_MIN_LENGTH = 12;
    public static final int DEFAULT_MAX_LENGTH = 2000;

    /** Where accepted candidates go. */
    public enum AcceptMode {
        STORE,
        PROPOSE
    }

    /** Gate outcome. */
    public enum Outcome {
        STORE,
        PROPOSE,
        REJECT;

        public boolean accepted() {
            return this != REJECT;
        }
    }

    /**
     * Thresholds and accept modes; {@code namespaceModes} overrides {@code defaultMode} per
     * namespace.
     */
    public record Config(
            double minConfidence,
            double storeConfidence,
            int minLength,
            int maxLength,
            AcceptMode defaultMode,
            Map<String, AcceptMode> namespaceModes) {
        public Config {
            if (!(minConfidence >= 0.0 && minConfidence <= 1.0)) {
                throw new IllegalArgumentException(
                        "illegal minConfidence: " + minConfidence + ", must be in [0, 1]");
            }
            if (!(storeConfidence >= minConfidence && storeConfidence <= 1.0)) {
                throw new IllegalArgumentException(
                        "illegal storeConfidence: "
                                + storeConfidence
                                + ", must be in [minConfidence "
                                + minConfidence
                                + ", 1]");
            }
            if (minLength < 1 || maxLength < minLength) {
                throw new IllegalArgumentException(
                        "illegal length bounds: "
                                + minLength
                                + ".."
                                + maxLength
                                + ", must be 1 <= min <= max");
            }
            Objects.requireNonNull(defaultMode, "defaultMode");
            namespaceModes = Map.copyOf(namespaceModes);
        }

        public static Config defaults() {
            return new Config(
                    DEFAULT_MIN_CONFIDENCE,
                    DEFAULT_STORE_CONFIDENCE,
                    DEFAULT_MIN_LENGTH,
                    DEFAULT_MAX_LENGTH,
                    AcceptMode.STORE,
                    Map.of());
        }

        public Config withNamespaceMode(String namespace, AcceptMode mode) {
            Map<String, AcceptMode> m = new HashMap<>(namespaceModes);
            m.put(namespace, mode);
            return new Config(minConfidence, storeConfidence, minLength, maxLength, defaultMode, m);
        }

        public AcceptMode mode(String namespace) {
            return namespaceModes.getOrDefault(namespace, defaultMode);
        }
    }

    /** The decision, a reason without content, and the safety result it was based on. */
    public record Decision(Outcome outcome, String reason, SafetyResult safety) {
        public Decision {
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(safety, "safety");
        }
    }

    private final Config config;
    private final WriteSafety safety;

    private QualityGate(Config config, WriteSafety safety) {
        this.config = Objects.requireNonNull(config, "config");
        this.safety = Objects.requireNonNull(safety, "safety");
    }

    public static QualityGate create(Config config, WriteSafety safety) {
        return new QualityGate(config, safety);
    }

    public static QualityGate defaults() {
        return new QualityGate(Config.defaults(), WriteSafety.standard());
    }

    public Config config() {
        return config;
    }

    /**
     * Decides for one candidate in {@code scope}.
     *
     * @param isDuplicate whether an equal memory already exists (supplied by the store side)
     */
    public Decision decide(Candidate candidate, Scope scope, Predicate<Candidate> isDuplicate) {
        SafetyResult s = safety.check(candidate.content(), WriteTarget.MEMORY);
        if (s.blocked()) {
            RuleHit hit = s.firstBlocking().orElseThrow();
            return new Decision(Outcome.REJECT, "blocked: " + hit.rule().ruleName(), s);
        }
        int len = candidate.content().length();
        if (len < config.minLength() || len > config.maxLength()) {
            return new Decision(
                    Outcome.REJECT,
                    "length " + len + " outside " + config.minLength() + ".." + config.maxLength(),
                    s);
        }
        if (candidate.confidence() < config.minConfidence()) {
            return new Decision(
                    Outcome.REJECT,
                    String.format(
                            Locale.ROOT,
                            "confidence %.2f below %.2f",
                            candidate.confidence(),
                            config.minConfidence()),
                    s);
        }
        if (isDuplicate.test(candidate)) {
            return new Decision(Outcome.REJECT, "duplicate", s);
        }
        if (s.flagged()) {
            return new Decision(
                    Outcome.PROPOSE, "flagged for review: " + s.rules().get(0).ruleName(), s);
        }
        if (candidate.confidence() < config.storeConfidence()) {
            return new Decision(
                    Outcome.PROPOSE, "low confidence, for review: " + candidate.rule(), s);
        }
        return config.mode(scope.namespace()) == AcceptMode.STORE
                ? new Decision(Outcome.STORE, "accepted: " + candidate.rule(), s)
                : new Decision(Outcome.PROPOSE, "accepted for review: " + candidate.rule(), s);
    }
}
