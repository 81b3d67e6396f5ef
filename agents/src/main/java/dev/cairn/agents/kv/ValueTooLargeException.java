package dev.cairn.agents.kv;

/**
 * A value larger than {@link KeyValueMemory#MAX_VALUE_BYTES}: the HTTP layer answers 413 and
 * nothing is stored.
 */
public final class ValueTooLargeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ValueTooLargeException(String message) {
        super(message);
    }
}
