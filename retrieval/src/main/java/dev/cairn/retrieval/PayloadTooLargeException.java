package dev.cairn.retrieval;

/** A document or body over a size limit; the server answers 413 naming the limit. */
public final class PayloadTooLargeException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;
    private final long limit;

    public PayloadTooLargeException(String message, long limit) {
        super(message);
        this.limit = limit;
    }

    public long limit() {
        return limit;
    }
}
