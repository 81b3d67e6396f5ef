package dev.cairn.judge;

import java.io.Serial;

/**
 * The answer to judge is larger than the configured limit ({@link JudgeConfig#maxAnswerBytes()});
 * the server maps it to {@code 413 Content Too Large}. It is an {@link IllegalArgumentException} so
 * that callers that do not know it still answer 400.
 *
 * <p>Immutable and thread-safe.
 */
public final class PayloadTooLargeException extends IllegalArgumentException {

    @Serial private static final long serialVersionUID = 1L;

    private final long limit;
    private final long actual;

    /**
     * @param what what was too large, e.g. {@code "answer"}
     * @param actual its size in bytes
     * @param limit the largest size allowed, in bytes
     */
    public PayloadTooLargeException(String what, long actual, long limit) {
        super(what + " too large: " + actual + " bytes, must be <= " + limit);
        this.limit = limit;
        this.actual = actual;
    }

    /** The largest size allowed, in bytes. */
    public long limit() {
        return limit;
    }

    /** The size that was offered, in bytes. */
    public long actual() {
        return actual;
    }
}
