package dev.cairn.agents.conversation;

import dev.cairn.store.SqlAccess;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Conversations and messages in the store's database. Every method takes the namespace; an unknown
 * namespace on a write is a {@link java.util.NoSuchElementException}. Implementations are
 * thread-safe.
 */
public interface ConversationRepository {

    /** Most messages one call returns. */
    int MAX_LIMIT = 1000;

    static ConversationRepository sql(SqlAccess sql) {
        return new SqlConversationRepository(sql, Clock.systemUTC());
    }

    static ConversationRepository sql(SqlAccess sql, Clock clock) {
        return new SqlConversationRepository(sql, clock);
    }

    /** Creates a conversation with a new random UUID and returns the id. */
    String createConversation(String namespace);

    /** Ids of the namespace's conversations, oldest first (ties by id). */
    List<String> conversations(String namespace);

    /**
     * Appends messages to a conversation (created when unknown) in one transaction, with
     * consecutive sequence numbers in list order.
     *
     * @param ttl how long the messages live; {@link Duration#ZERO} for ever
     * @return the stored messages
     */
    List<StoredMessage> append(
            String namespace,
            String conversationId,
            String queryId,
            List<NewMessage> messages,
            Duration ttl);

    /** A page of the unexpired messages matching {@code filter}, in sequence order. */
    MessagePage messages(String namespace, MessageFilter filter, int offset, int limit);

    /** Every unexpired, unflagged message of the namespace (what transcript search indexes). */
    List<StoredMessage> searchable(String namespace);

    /** The unexpired, unflagged messages among {@code sequences}, in sequence order. */
    List<StoredMessage> searchableBySequence(
            String namespace, java.util.Collection<Long> sequences);

    /**
     * Deletes a conversation and its messages.
     *
     * @return the sequence numbers of the deleted messages
     */
    List<Long> deleteConversation(String namespace, String conversationId);

    /**
     * Deletes the messages of a query, in one conversation or (with {@code conversationId} "") in
     * all.
     *
     * @return the sequence numbers of the deleted messages
     */
    List<Long> deleteQueryMessages(String namespace, String conversationId, String queryId);
}
