package dev.cairn.agents.conversation;

/**
 * A message larger than {@link Transcripts#MAX_MESSAGE_BYTES}: the HTTP layer answers 413, and
 * nothing of the batch is stored.
 */
public final class MessageTooLargeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MessageTooLargeException(String message) {
        super(message);
    }
}
