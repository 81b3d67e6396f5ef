package dev.cairn.agents.conversation;

import dev.cairn.memory.NewMemory;
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

    /** Longest message TTL, the same as a memory's. */
    java.time.Duration MAX_TTL = NewMemory.MAX_TTL;

    /**
     * Most messages one {@link #messagesAfter} call returns: a watch replays and a paging client
     * reads in pages of at most this many, following the cursor.
     */
    int MAX_READ = 10_000;

    /** The role of the message {@link #history} keeps in front of a window. */
    String SYSTEM_ROLE = "system";

    /** The role of a tool's result, which answers a tool call of an earlier message. */
    String TOOL_ROLE = "tool";

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

    /**
     * Hands every conversation of the namespace to {@code consumer}, oldest first, with its
     * unexpired messages, their times and expiry (what a namespace export carries).
     */
    void forEachCopy(String namespace, java.util.function.Consumer<ConversationCopy> consumer);

    /**
     * Writes an exported conversation: the messages the stored one lacks (it holds none, or the
     * copy's first messages, as after an interrupted import), with their own times, query ids and
     * expiry; answers how many were written.
     */
    int restore(String namespace, ConversationCopy copy);

    /** A page of the unexpired messages matching {@code filter}, in sequence order. */
    MessagePage messages(String namespace, MessageFilter filter, int offset, int limit);

    /**
     * Up to {@code limit} (at most {@link #MAX_READ}) unexpired messages matching {@code filter}
     * whose sequence is above {@code afterSequence}, in sequence order. The page's {@code total}
     * counts every match and its {@code offset} the matches at or below {@code afterSequence}, so
     * {@link MessagePage#hasMore()} tells whether more follow.
     */
    MessagePage messagesAfter(
            String namespace, MessageFilter filter, long afterSequence, int limit);

    /**
     * A conversation's history as a runtime replays it to its model in one read (ARK's controller
     * reads it without paging and sends all of it). With at most {@code maxMessages} unexpired
     * messages, all of them. With more, the newest turns matter most and the instructions at the
     * start must not be lost: the conversation's first {@link #SYSTEM_ROLE system} message, then
     * the newest {@code maxMessages - 1} messages, less any {@link #TOOL_ROLE tool} results at the
     * start of that window (the tool calls they answer were left out, and a model API refuses a
     * tool result without its call). Without a system message the window holds the newest {@code
     * maxMessages}. Read in one transaction.
     *
     * @param maxMessages at least 2
     */
    ConversationHistory history(String namespace, String conversationId, int maxMessages);

    /**
     * The highest sequence handed out in the namespace (0 before its first message): a watcher that
     * starts from it sees only messages appended afterwards.
     */
    long lastSequence(String namespace);

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

    /** A conversation's unexpired message count and distinct query count. */
    record ConversationCounts(long messageCount, long queryCount) {}

    /**
     * Every conversation of the namespace with its counts (a conversation without unexpired
     * messages counts 0), oldest first.
     */
    java.util.LinkedHashMap<String, ConversationCounts> counts(String namespace);

    /**
     * Deletes every conversation and message of the namespace.
     *
     * @return the sequence numbers of the deleted messages
     */
    List<Long> deleteAll(String namespace);
}
