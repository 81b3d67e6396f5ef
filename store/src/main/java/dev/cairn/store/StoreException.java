package dev.cairn.store;

/**
 * The store's backend failed (I/O, connection, SQL); wraps the checked cause. Semantic errors use
 * the JDK types instead: {@link java.util.NoSuchElementException}, {@link IllegalStateException},
 * {@link IllegalArgumentException}.
 */
public final class StoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
