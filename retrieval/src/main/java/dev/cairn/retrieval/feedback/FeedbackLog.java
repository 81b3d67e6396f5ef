package dev.cairn.retrieval.feedback;

import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.SqlAccess;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A namespace's relevance judgments in {@code retrieval_feedback}: recorded in batches, read back
 * newest first in pages, and read whole by the {@link QueryAdapterTrainer}'s caller. Judgments are
 * facts about the past and never change; recording the same judgment twice keeps both rows (the
 * trainer counts a query's target once, at its latest grade). Thread-safe.
 */
public final class FeedbackLog {

    /** Most judgments one call may record. */
    public static final int MAX_PER_CALL = 1000;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String COLUMNS =
            "id, query, target_kind, target_id, grade, source, created_at";

    private final SqlAccess sql;

    public FeedbackLog(SqlAccess sql) {
        this.sql = sql;
    }

    /**
     * Records {@code drafts} ({@link Judgment#draft}) in one transaction and returns them with
     * their ids and time.
     *
     * @throws java.util.NoSuchElementException when the namespace does not exist
     * @throws IllegalArgumentException when there are none or more than {@value #MAX_PER_CALL}
     */
    public List<Judgment> record(String namespace, List<Judgment> drafts) {
        if (drafts.isEmpty() || drafts.size() > MAX_PER_CALL) {
            throw new IllegalArgumentException(
                    "illegal number of judgments: "
                            + drafts.size()
                            + ", must be in [1, "
                            + MAX_PER_CALL
                            + "]");
        }
        Instant now = Instant.now();
        List<Judgment> recorded = new ArrayList<>(drafts.size());
        for (Judgment d : drafts) {
            recorded.add(
                    new Judgment(newId(now), d.query(), d.target(), d.grade(), d.source(), now));
        }
        insert(namespace, recorded, "");
        return List.copyOf(recorded);
    }

    /**
     * Stores exported judgments under their own ids and times, in one transaction; a judgment whose
     * id is stored already is left alone (an import run again adds nothing).
     *
     * @return how many were stored
     */
    public int restore(String namespace, List<Judgment> judgments) {
        return judgments.isEmpty()
                ? 0
                : insert(namespace, judgments, " ON CONFLICT (namespace, id) DO NOTHING");
    }

    private int insert(String namespace, List<Judgment> judgments, String onConflict) {
        return sql.write(
                namespace,
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "INSERT INTO retrieval_feedback (namespace, "
                                            + COLUMNS
                                            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                                            + onConflict)) {
                        for (Judgment j : judgments) {
                            ps.setString(1, namespace);
                            ps.setString(2, j.id());
                            ps.setString(3, j.query());
                            ps.setString(4, j.target().kind().name());
                            ps.setString(5, j.target().id());
                            ps.setInt(6, j.grade());
                            ps.setString(7, j.source().name());
                            sql.bindInstant(ps, 8, j.createdAt());
                            ps.addBatch();
                        }
                        int stored = 0;
                        for (int n : ps.executeBatch()) {
                            stored += Math.max(n, 0);
                        }
                        return stored;
                    }
                });
    }

    /** A page of the namespace's judgments, newest first; the cursor is the last id shown. */
    public Page<Judgment> page(String namespace, PageRequest page) {
        return sql.read(
                c -> {
                    long total;
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT count(*) FROM retrieval_feedback WHERE namespace = ?")) {
                        ps.setString(1, namespace);
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            total = rs.getLong(1);
                        }
                    }
                    String after = page.after().isEmpty() ? "" : " AND id < ?";
                    List<Judgment> items =
                            select(
                                    c,
                                    " WHERE namespace = ?"
                                            + after
                                            + " ORDER BY id DESC LIMIT "
                                            + (page.limit() + 1),
                                    namespace,
                                    page.after());
                    boolean more = items.size() > page.limit();
                    List<Judgment> shown = more ? items.subList(0, page.limit()) : items;
                    return new Page<>(
                            List.copyOf(shown),
                            total,
                            more ? PageRequest.cursorAfter(shown.getLast().id()) : "");
                });
    }

    /** Every judgment of the namespace, oldest first. */
    public List<Judgment> all(String namespace) {
        return sql.read(c -> select(c, " WHERE namespace = ? ORDER BY id", namespace, ""));
    }

    /** Deletes every judgment of the namespace; returns how many there were. */
    public int clear(String namespace) {
        return sql.write(
                namespace,
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "DELETE FROM retrieval_feedback WHERE namespace = ?")) {
                        ps.setString(1, namespace);
                        return ps.executeUpdate();
                    }
                });
    }

    private List<Judgment> select(Connection c, String where, String namespace, String cursor)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT " + COLUMNS + " FROM retrieval_feedback" + where)) {
            ps.setString(1, namespace);
            if (!cursor.isEmpty()) {
                ps.setString(2, cursor);
            }
            List<Judgment> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(
                            new Judgment(
                                    rs.getString("id"),
                                    rs.getString("query"),
                                    new Judgment.Target(
                                            Judgment.Kind.valueOf(rs.getString("target_kind")),
                                            rs.getString("target_id")),
                                    rs.getInt("grade"),
                                    Judgment.Source.valueOf(rs.getString("source")),
                                    sql.readInstant(rs, "created_at")));
                }
            }
            return out;
        }
    }

    private static String newId(Instant now) {
        byte[] random = new byte[8];
        RANDOM.nextBytes(random);
        return "fb_"
                + String.format("%012x", now.toEpochMilli())
                + HexFormat.of().formatHex(random);
    }
}
