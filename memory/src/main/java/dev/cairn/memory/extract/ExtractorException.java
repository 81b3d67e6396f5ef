package dev.cairn.memory.extract;

import java.util.Objects;

/**
 * A remote extractor failed. The message names the reason and, for HTTP errors, the status; it
 * never carries the exchange's text or the remote body. The server maps it to a partial extraction
 * (rule-based candidates only), not to a 500.
 */
public final class ExtractorException extends RuntimeException {

    /** Why the call failed. */
    public enum Reason {
        HTTP_STATUS,
        MALFORMED_RESPONSE,
        TIMEOUT,
        IO,
        INTERRUPTED
    }

    private final Reason reason;

    ExtractorException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public Reason reason() {
        return reason;
    }
}
