package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The statements each module's share of forgetting a user ({@link Store#forgetUser}) is made of:
 * read the ids a condition selects, delete what a condition selects, delete rows by a list of ids
 * in bounded {@code IN} lists. Every argument is a string; callers run inside the forget's
 * transaction.
 */
public final class ErasureSql {

    private ErasureSql() {}

    /** The first column, as text, of every row {@code select} gives. */
    public static List<String> strings(Connection c, String select, List<String> args)
            throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(select)) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /** Runs {@code delete} once: the number of rows it removed. */
    public static long delete(Connection c, String delete, List<String> args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(delete)) {
            bind(ps, args);
            return ps.executeUpdate();
        }
    }

    /**
     * Runs {@code deletePrefix + " IN (?, ...)"} with {@code leading} bound first and then the ids,
     * at most {@link JdbcStore#IN_BATCH} ids per statement: the number of rows removed.
     */
    public static long deleteIn(
            Connection c, String deletePrefix, List<String> leading, Collection<String> ids)
            throws SQLException {
        long removed = 0;
        for (List<String> args : inBatches(leading, ids)) {
            removed += delete(c, deletePrefix + marks(args.size() - leading.size()), args);
        }
        return removed;
    }

    /**
     * The first column of every row {@code selectPrefix + " IN (?, ...)"} gives, with {@code
     * leading} bound first and then the ids, at most {@link JdbcStore#IN_BATCH} ids per statement.
     */
    public static List<String> stringsIn(
            Connection c, String selectPrefix, List<String> leading, Collection<String> ids)
            throws SQLException {
        List<String> out = new ArrayList<>();
        for (List<String> args : inBatches(leading, ids)) {
            out.addAll(strings(c, selectPrefix + marks(args.size() - leading.size()), args));
        }
        return out;
    }

    private static List<List<String>> inBatches(List<String> leading, Collection<String> ids) {
        List<String> all = List.copyOf(ids);
        List<List<String>> batches = new ArrayList<>();
        for (int from = 0; from < all.size(); from += JdbcStore.IN_BATCH) {
            List<String> args = new ArrayList<>(leading);
            args.addAll(all.subList(from, Math.min(all.size(), from + JdbcStore.IN_BATCH)));
            batches.add(args);
        }
        return batches;
    }

    private static String marks(int n) {
        return " IN (" + String.join(", ", java.util.Collections.nCopies(n, "?")) + ")";
    }

    private static void bind(PreparedStatement ps, List<String> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            ps.setString(i + 1, args.get(i));
        }
    }
}
