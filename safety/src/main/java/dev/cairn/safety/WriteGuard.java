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

    /** Checks and redacts; blocked text is not redacted (it will not be stored). */
    public Guarded apply(String text, WriteTarget target) {
        SafetyResult result = safety.check(text, target);
        RedactionResult redaction =
                result.blocked() ? new RedactionResult("", Map.of()) : redactor.redact(text);
        return new Guarded(result, redaction);
    }
}
