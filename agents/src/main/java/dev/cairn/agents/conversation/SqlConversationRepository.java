package dev.cairn.agents.conversation;

import dev.cairn.store.Change;
import dev.cairn.store.Identifiers;
import dev.cairn.store.SqlAccess;
import dev.cairn.store.SqlColumns;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * {@link ConversationRepository} over {@link SqlAccess}. Sequence numbers come from the row of
 * {@code message_sequences} for the namespace, incremented inside the appending transaction (a row
 * lock in PostgreSQL, the database lock in SQLite), so concurrent appends never share a number.
 * Thread-safe.
 *
 * <p>Why about 690 lines: every statement over the conversation tables, for both SQL dialects
 * (appends with their sequence rows, paging, history, transcript search, deletion by conversation,
 * by query and everywhere, the export's copies and their restore), kept beside the one schema they
 * read and write.
 */
final class SqlConversationRepository implements ConversationRepository {

    private static final String COLUMNS = MessageRows.COLUMNS;

    private final SqlAccess sql;
    private final MessageRows rows;
    private final Clock clock;

    SqlConversationRepository(SqlAccess sql, Clock clock) {
        this.sql = Objects.requireNonNull(sql, "sql");
        this.rows = new MessageRows(sql);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public String createConversation(String namespace) {
        String id = UUID.randomUUID().toString();
        Instant now = clock.instant();
        return sql.write(
                namespace,
                c -> {
                    insertConversation(c, namespace, id, now);
                    return id;
                });
    }

    private void insertConversation(Connection c, String namespace, String id, Instant now)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO conversations (namespace, id, created_at) VALUES (?, ?, ?)"
                                + " ON CONFLICT (namespace, id) DO NOTHING")) {
            ps.setString(1, namespace);
            ps.setString(2, id);
            sql.bindInstant(ps, 3, now);
            ps.executeUpdate();
        }
    }

    @Override
    public List<String> conversations(String namespace) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT id FROM conversations WHERE namespace = ?"
                                            + " ORDER BY created_at, id")) {
                        ps.setString(1, namespace);
                        List<String> ids = new ArrayList<>();
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                ids.add(rs.getString(1));
                            }
                        }
                        return List.copyOf(ids);
                    }
                });
    }

    @Override
    public List<StoredMessage> append(
            String namespace,
            String conversationId,
            String queryId,
            List<NewMessage> messages,
            Duration ttl) {
        requireId(conversationId, "conversationId");
        requireId(queryId, "queryId");
        if (ttl.isNegative() || ttl.compareTo(MAX_TTL) > 0) {
            throw new IllegalArgumentException(
                    "illegal ttl: "
                            + ttl.toSeconds()
                            + " seconds, must be in [0, "
                            + MAX_TTL.toSeconds()
                            + "]");
        }
        Instant now = clock.instant();
        Optional<Instant> expires = ttl.isZero() ? Optional.empty() : Optional.of(now.plus(ttl));
        List<ConversationCopy.Message> rows = new ArrayList<>(messages.size());
        for (NewMessage m : messages) {
            rows.add(
                    new ConversationCopy.Message(
                            queryId,
                            m.json(),
                            m.role(),
                            m.content(),
                            m.flagged(),
                            m.flags(),
                            now,
                            expires));
        }
        return sql.write(namespace, c -> insert(c, namespace, conversationId, now, rows));
    }

    /**
     * Inserts the conversation (unless it exists) and {@code messages} with consecutive sequence
     * numbers, appending one MESSAGE change per message.
     */
    private List<StoredMessage> insert(
            Connection c,
            String namespace,
            String conversationId,
            Instant createdAt,
            List<ConversationCopy.Message> messages)
            throws SQLException {
        insertConversation(c, namespace, conversationId, createdAt);
        if (messages.isEmpty()) {
            return List.of();
        }
        long first = reserve(c, namespace, messages.size());
        List<StoredMessage> out = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO messages (namespace, "
                                + COLUMNS
                                + ", expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int i = 0; i < messages.size(); i++) {
                ConversationCopy.Message m = messages.get(i);
                long seq = first + i;
                ps.setString(1, namespace);
                ps.setLong(2, seq);
                ps.setString(3, conversationId);
                ps.setString(4, m.queryId());
                ps.setString(5, m.json());
                ps.setString(6, m.role());
                ps.setString(7, m.content());
                ps.setBoolean(8, m.flagged());
                sql.bindInstant(ps, 9, m.createdAt());
                ps.setString(10, String.join(",", m.flags()));
                SqlColumns.bindOptionalInstant(sql, ps, 11, m.expiresAt());
                ps.addBatch();
                out.add(
                        new StoredMessage(
                                seq,
                                conversationId,
                                m.queryId(),
                                m.json(),
                                m.role(),
                                m.content(),
                                m.flagged(),
                                m.createdAt(),
                                m.flags()));
            }
            ps.executeBatch();
        }
        sql.appendChanges(
                c,
                namespace,
                Change.Kind.MESSAGE,
                out.stream().map(StoredMessage::messageId).toList(),
                Change.Op.UPSERT);
        return List.copyOf(out);
    }

    @Override
    public void forEachCopy(String namespace, Consumer<ConversationCopy> consumer) {
        Instant now = clock.instant();
        List<ConversationCopy> copies =
                sql.read(
                        c -> {
                            List<ConversationCopy> out = new ArrayList<>();
                            for (var conversation : conversationsSince(c, namespace)) {
                                out.add(
                                        new ConversationCopy(
                                                conversation.getKey(),
                                                conversation.getValue(),
                                                unexpired(
                                                        c, namespace, conversation.getKey(), now)));
                            }
                            return out;
                        });
        copies.forEach(consumer);
    }

    private List<java.util.Map.Entry<String, Instant>> conversationsSince(
            Connection c, String namespace) throws SQLException {
        List<java.util.Map.Entry<String, Instant>> out = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT id, created_at FROM conversations WHERE namespace = ?"
                                + " ORDER BY created_at, id")) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(
                            java.util.Map.entry(
                                    rs.getString(1), sql.readInstant(rs, "created_at")));
                }
            }
        }
        return out;
    }

    private List<ConversationCopy.Message> unexpired(
            Connection c, String namespace, String conversationId, Instant now)
            throws SQLException {
        List<ConversationCopy.Message> out = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT "
                                + COLUMNS
                                + ", expires_at FROM messages WHERE namespace = ? AND"
                                + " conversation_id = ? AND (expires_at IS NULL OR expires_at > ?)"
                                + " ORDER BY seq")) {
            ps.setString(1, namespace);
            ps.setString(2, conversationId);
            sql.bindInstant(ps, 3, now);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    StoredMessage m = rows.row(rs);
                    out.add(
                            new ConversationCopy.Message(
                                    m.queryId(),
                                    m.json(),
                                    m.role(),
                                    m.content(),
                                    m.flagged(),
                                    m.flags(),
                                    m.createdAt(),
                                    SqlColumns.readOptionalInstant(sql, rs, "expires_at")));
                }
            }
        }
        return out;
    }

    @Override
    public int restore(String namespace, ConversationCopy copy) {
        requireId(copy.id(), "conversationId");
        for (ConversationCopy.Message m : copy.messages()) {
            requireId(m.queryId(), "queryId");
        }
        return sql.write(
                namespace,
                c -> {
                    long stored = storedMessages(c, namespace, copy.id());
                    List<ConversationCopy.Message> missing =
                            stored >= copy.messages().size()
                                    ? List.of()
                                    : copy.messages().subList((int) stored, copy.messages().size());
                    return insert(c, namespace, copy.id(), copy.createdAt(), missing).size();
                });
    }

    /** Messages stored in a conversation, expired ones included. */
    private static long storedMessages(Connection c, String namespace, String conversationId)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT COUNT(*) FROM messages WHERE namespace = ? AND conversation_id = ?")) {
            ps.setString(1, namespace);
            ps.setString(2, conversationId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Reserves {@code count} sequence numbers and returns the first. */
    private long reserve(Connection c, String namespace, int count) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO message_sequences (namespace, last_seq) VALUES (?, 0)"
                                + " ON CONFLICT (namespace) DO NOTHING")) {
            ps.setString(1, namespace);
            ps.executeUpdate();
        }
        try (PreparedStatement ps =
                c.prepareStatement(
                        "UPDATE message_sequences SET last_seq = last_seq + ? WHERE namespace = ?")) {
            ps.setInt(1, count);
            ps.setString(2, namespace);
            ps.executeUpdate();
        }
        try (PreparedStatement ps =
                c.prepareStatement("SELECT last_seq FROM message_sequences WHERE namespace = ?")) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) - count + 1;
            }
        }
    }

    @Override
    public MessagePage messages(String namespace, MessageFilter filter, int offset, int limit) {
        if (offset < 0) {
            throw new IllegalArgumentException("illegal offset: " + offset + ", must be >= 0");
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "illegal limit: " + limit + ", must be in [1, " + MAX_LIMIT + "]");
        }
        String where = where(filter);
        List<String> args = whereArgs(filter);
        Instant now = clock.instant();
        return sql.read(
                c -> {
                    long total = count(c, where, namespace, now, args);
                    List<StoredMessage> items;
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + COLUMNS
                                            + where
                                            + " ORDER BY seq LIMIT ? OFFSET ?")) {
                        int i = bindWhere(ps, 1, namespace, now, args);
                        ps.setInt(i++, limit);
                        ps.setInt(i, offset);
                        items = rows.read(ps);
                    }
                    return new MessagePage(items, total, offset);
                });
    }

    @Override
    public long lastSequence(String namespace) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT last_seq FROM message_sequences WHERE namespace = ?")) {
                        ps.setString(1, namespace);
                        try (ResultSet rs = ps.executeQuery()) {
                            return rs.next() ? rs.getLong(1) : 0L;
                        }
                    }
                });
    }

    @Override
    public MessagePage messagesAfter(
            String namespace, MessageFilter filter, long afterSequence, int limit) {
        if (afterSequence < 0) {
            throw new IllegalArgumentException(
                    "illegal afterSequence: " + afterSequence + ", must be >= 0");
        }
        if (limit < 1 || limit > MAX_READ) {
            throw new IllegalArgumentException(
                    "illegal limit: " + limit + ", must be in [1, " + MAX_READ + "]");
        }
        String where = where(filter);
        List<String> args = whereArgs(filter);
        Instant now = clock.instant();
        return sql.read(
                c -> {
                    long total;
                    long before;
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT count(*), coalesce(sum(CASE WHEN seq <= ? THEN 1"
                                            + " ELSE 0 END), 0)"
                                            + where)) {
                        ps.setLong(1, afterSequence);
                        bindWhere(ps, 2, namespace, now, args);
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            total = rs.getLong(1);
                            before = rs.getLong(2);
                        }
                    }
                    List<StoredMessage> items;
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + COLUMNS
                                            + where
                                            + " AND seq > ? ORDER BY seq LIMIT ?")) {
                        int i = bindWhere(ps, 1, namespace, now, args);
                        ps.setLong(i++, afterSequence);
                        ps.setInt(i, limit);
                        items = rows.read(ps);
                    }
                    return new MessagePage(items, total, (int) Math.min(before, Integer.MAX_VALUE));
                });
    }

    @Override
    public ConversationHistory history(String namespace, String conversationId, int maxMessages) {
        if (maxMessages < 2) {
            throw new IllegalArgumentException(
                    "illegal maxMessages: " + maxMessages + ", must be >= 2");
        }
        MessageFilter filter = MessageFilter.conversation(conversationId);
        if (filter.conversationId().isEmpty()) {
            throw new IllegalArgumentException("illegal conversationId: blank");
        }
        String where = where(filter);
        List<String> args = whereArgs(filter);
        Instant now = clock.instant();
        return sql.read(
                c -> {
                    // One more than the bound tells whether the whole conversation fits, so a
                    // conversation within it costs one query.
                    List<StoredMessage> newest;
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT " + COLUMNS + where + " ORDER BY seq DESC LIMIT ?")) {
                        int i = bindWhere(ps, 1, namespace, now, args);
                        ps.setInt(i, maxMessages + 1);
                        newest = new ArrayList<>(rows.read(ps).reversed());
                    }
                    if (newest.size() <= maxMessages) {
                        return new ConversationHistory(newest, newest.size(), 0);
                    }
                    long total = count(c, where, namespace, now, args);
                    List<StoredMessage> system;
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + COLUMNS
                                            + where
                                            + " AND role = ? ORDER BY seq LIMIT 1")) {
                        int i = bindWhere(ps, 1, namespace, now, args);
                        ps.setString(i, SYSTEM_ROLE);
                        system = rows.read(ps);
                    }
                    // a first system message among the newest is answered in its place
                    long windowStart = newest.get(newest.size() - (maxMessages - 1)).sequence();
                    List<StoredMessage> lead =
                            system.isEmpty() || system.getFirst().sequence() >= windowStart
                                    ? List.of()
                                    : system;
                    List<StoredMessage> window =
                            newest.subList(
                                    newest.size() - (maxMessages - lead.size()), newest.size());
                    int start = 0;
                    while (start < window.size() && window.get(start).role().equals(TOOL_ROLE)) {
                        start++;
                    }
                    List<StoredMessage> messages = new ArrayList<>(lead);
                    messages.addAll(window.subList(start, window.size()));
                    // a deletion between the reads may have lowered the count below what was read
                    long all = Math.max(total, messages.size());
                    return new ConversationHistory(messages, all, all - messages.size());
                });
    }

    /** How many messages {@code where} (of {@link #where}) matches. */
    private long count(Connection c, String where, String namespace, Instant now, List<String> args)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*)" + where)) {
            bindWhere(ps, 1, namespace, now, args);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static String where(MessageFilter filter) {
        return " FROM messages WHERE namespace = ? AND (expires_at IS NULL OR expires_at > ?)"
                + (filter.conversationId().isEmpty() ? "" : " AND conversation_id = ?")
                + (filter.queryId().isEmpty() ? "" : " AND query_id = ?");
    }

    private static List<String> whereArgs(MessageFilter filter) {
        List<String> args = new ArrayList<>();
        if (!filter.conversationId().isEmpty()) {
            args.add(filter.conversationId());
        }
        if (!filter.queryId().isEmpty()) {
            args.add(filter.queryId());
        }
        return args;
    }

    private int bindWhere(
            PreparedStatement ps, int first, String namespace, Instant now, List<String> args)
            throws SQLException {
        int i = first;
        ps.setString(i++, namespace);
        sql.bindInstant(ps, i++, now);
        for (String a : args) {
            ps.setString(i++, a);
        }
        return i;
    }

    @Override
    public List<StoredMessage> searchable(String namespace) {
        return searchableBetween(namespace, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /**
     * Sequence numbers further apart than this start a new range: reading a range reads the rows
     * between its numbers too, at most this many per number asked for.
     */
    static final int RANGE_GAP = 16;

    /** The widest range one query reads. */
    static final int RANGE_SPAN = 4096;

    /**
     * Read as ranges of near numbers ({@code seq BETWEEN}, the primary key's own order), not as an
     * {@code IN} list: a change batch's messages are consecutive, and PostgreSQL's generic plan for
     * an {@code IN} list of bound parameters compares every row of the namespace with every
     * parameter, which made appending 50,000 messages to one conversation take 13 s, growing with
     * the square of its size.
     */
    @Override
    public List<StoredMessage> searchableBySequence(String namespace, Collection<Long> sequences) {
        List<Long> seqs = sequences.stream().distinct().sorted().toList();
        List<StoredMessage> out = new ArrayList<>();
        int from = 0;
        while (from < seqs.size()) {
            int to = from + 1;
            while (to < seqs.size()
                    && seqs.get(to) - seqs.get(to - 1) <= RANGE_GAP
                    && seqs.get(to) - seqs.get(from) < RANGE_SPAN) {
                to++;
            }
            Set<Long> wanted = new HashSet<>(seqs.subList(from, to));
            for (StoredMessage m : searchableBetween(namespace, seqs.get(from), seqs.get(to - 1))) {
                if (wanted.contains(m.sequence())) {
                    out.add(m);
                }
            }
            from = to;
        }
        return List.copyOf(out);
    }

    /** The unexpired, unflagged messages numbered {@code first} to {@code last}, in order. */
    private List<StoredMessage> searchableBetween(String namespace, long first, long last) {
        Instant now = clock.instant();
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + COLUMNS
                                            + " FROM messages WHERE namespace = ? AND flagged = ?"
                                            + " AND (expires_at IS NULL OR expires_at > ?)"
                                            + " AND seq BETWEEN ? AND ?"
                                            + " ORDER BY seq")) {
                        ps.setString(1, namespace);
                        ps.setBoolean(2, false);
                        sql.bindInstant(ps, 3, now);
                        ps.setLong(4, first);
                        ps.setLong(5, last);
                        return rows.read(ps);
                    }
                });
    }

    @Override
    public List<Long> deleteConversation(String namespace, String conversationId) {
        return sql.write(
                namespace,
                c -> {
                    List<Long> deleted =
                            deleteMessages(
                                    c,
                                    namespace,
                                    " AND conversation_id = ?",
                                    List.of(conversationId));
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "DELETE FROM conversations WHERE namespace = ? AND id = ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, conversationId);
                        ps.executeUpdate();
                    }
                    return deleted;
                });
    }

    @Override
    public List<Long> deleteQueryMessages(String namespace, String conversationId, String queryId) {
        return sql.write(
                namespace,
                c ->
                        conversationId.isEmpty()
                                ? deleteMessages(
                                        c, namespace, " AND query_id = ?", List.of(queryId))
                                : deleteMessages(
                                        c,
                                        namespace,
                                        " AND conversation_id = ? AND query_id = ?",
                                        List.of(conversationId, queryId)));
    }

    @Override
    public java.util.LinkedHashMap<String, ConversationCounts> counts(String namespace) {
        Instant now = clock.instant();
        return sql.read(
                c -> {
                    java.util.LinkedHashMap<String, ConversationCounts> out =
                            new java.util.LinkedHashMap<>();
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT id FROM conversations WHERE namespace = ?"
                                            + " ORDER BY created_at, id")) {
                        ps.setString(1, namespace);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                out.put(rs.getString(1), new ConversationCounts(0, 0));
                            }
                        }
                    }
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT conversation_id, COUNT(*), COUNT(DISTINCT query_id)"
                                            + " FROM messages WHERE namespace = ?"
                                            + " AND (expires_at IS NULL OR expires_at > ?)"
                                            + " GROUP BY conversation_id")) {
                        ps.setString(1, namespace);
                        sql.bindInstant(ps, 2, now);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                out.put(
                                        rs.getString(1),
                                        new ConversationCounts(rs.getLong(2), rs.getLong(3)));
                            }
                        }
                    }
                    return out;
                });
    }

    @Override
    public List<Long> deleteAll(String namespace) {
        return sql.write(
                namespace,
                c -> {
                    List<Long> deleted = deleteMessages(c, namespace, "", List.of());
                    try (PreparedStatement ps =
                            c.prepareStatement("DELETE FROM conversations WHERE namespace = ?")) {
                        ps.setString(1, namespace);
                        ps.executeUpdate();
                    }
                    return deleted;
                });
    }

    private List<Long> deleteMessages(
            Connection c, String namespace, String condition, List<String> args)
            throws SQLException {
        List<Long> seqs = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT seq FROM messages WHERE namespace = ?"
                                + condition
                                + " ORDER BY seq")) {
            ps.setString(1, namespace);
            for (int i = 0; i < args.size(); i++) {
                ps.setString(i + 2, args.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    seqs.add(rs.getLong(1));
                }
            }
        }
        try (PreparedStatement ps =
                c.prepareStatement("DELETE FROM messages WHERE namespace = ?" + condition)) {
            ps.setString(1, namespace);
            for (int i = 0; i < args.size(); i++) {
                ps.setString(i + 2, args.get(i));
            }
            ps.executeUpdate();
        }
        sql.appendChanges(
                c,
                namespace,
                Change.Kind.MESSAGE,
                seqs.stream().map(String::valueOf).toList(),
                Change.Op.DELETE);
        return List.copyOf(seqs);
    }

    private static void requireId(String id, String name) {
        Identifiers.requireId(id, name);
    }
}
