package dev.cairn.safety;

import java.util.Map;
import java.util.Objects;

/**
 * The whole write path for text: {@link WriteSafety} on the original text, then {@link
 * SecretRedactor}. The server calls this once per memory, proposal or message and persists {@link
 * Guarded#text()} unless {@link Guarded#blocked()}. Immutable, thread-safe.
 */
public final class WriteGuard {

    /** Result: the safety verdict and the redacted text to store. */
    public record Guarded(SafetyResult safety, RedactionResult redaction) {
        public Guarded {
            Objects.requireNonNull(safety, "safety");
            Objects.requireNonNull(redaction, "redaction");
        }

        /** Text to persist (secrets replaced). */
        public String text() {
            return redaction.text();
        }

        public Verdict verdict() {
            return safety.verdict();
        }

        public boolean blocked() {
            return safety.blocked();
        }

        /**
         * This result, for a write path that refuses blocked text.
         *
         * @throws WriteBlockedException naming the first blocking rule
         */
        public Guarded requireAllowed() {
            if (blocked()) {
                throw new WriteBlockedException(safety.firstBlocking().orElseThrow().rule());
            }
            return this;
        }

        /** Whether the text must be stored disabled, for review. */
        public boolean storeDisabled() {
            return safety.flagged();
        }
    }

    private final WriteSafety safety;
    private final SecretRedactor redactor;

    private WriteGuard(WriteSafety safety, SecretRedactor redactor) {
        this.safety = Objects.requireNonNull(safety, "safety");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
    }

    public static WriteGuard create(WriteSafety safety, SecretRedactor redactor) {
        return new WriteGuard(safety, redactor);
    }

    public static WriteGuard standard() {
        return new WriteGuard(WriteSafety.standard(), SecretRedactor.standard());
    }

    /**
     * {@code value} of an identifying field (user, agent, session, task, conflict key, tag, key),
     * unchanged so it still matches the reads that name it; refused when its normalised form
     * ({@link SafeText#normalize}) holds a secret, since a redacted identifier would merge scopes
     * that differ.
     *
     * @throws WriteBlockedException with {@link SafetyRule#SECRET_IN_IDENTIFIER}, naming the field
     */
    public String identifier(String value, String field) {
        refuseSecret(redactor, value, field);
        return value;
    }

    /**
     * {@link #identifier} with the standard detectors, for fields that are normalised (e.g. tags
     * lower-cased) before any guard sees them.
     */
    public static void refuseSecret(String value, String field) {
        refuseSecret(SecretRedactor.standard(), value, field);
    }

    private static void refuseSecret(SecretRedactor redactor, String value, String field) {
        if (!value.isEmpty() && !redactor.detect(SafeText.normalize(value)).isEmpty()) {
            throw new WriteBlockedException(SafetyRule.SECRET_IN_IDENTIFIER, field);
        }
    }

    /** Free text that is not scanned as content (a source reference): secrets redacted. */
    public String redacted(String value) {
        return redactor.redact(value).text();
    }

    /** Checks and redacts; blocked text is not redacted (it will not be stored). */
    public Guarded apply(String text, WriteTarget target) {
        SafetyResult result = safety.check(text, target);
        RedactionResult redaction =
                result.blocked() ? new RedactionResult("", Map.of()) : redactor.redact(text);
        return new Guarded(result, redaction);
    }
}
