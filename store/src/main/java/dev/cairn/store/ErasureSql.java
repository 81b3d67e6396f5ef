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
 * read the ids a condition selects, delete what a condition selects, read or delete rows by a list
 * of ids ({@link OneOf}). Every argument is a string; callers run inside the forget's transaction.
 */
public final class ErasureSql {

    private ErasureSql() {}

    /** The first column, as text, of every row {@code select} gives. */
    public static List<String> strings(Connection c, String select, List<String> args)
            throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(select)) {
            bind(ps, args);
            read(ps, out);
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
     * Runs {@code delete + " AND "} a condition that {@code column} is one of {@code ids}, with
     * {@code leading} bound first and then the ids, in {@link OneOf#batches}: the number of rows
     * removed.
     */
    public static long deleteIn(
            Connection c,
            SqlAccess sql,
            String delete,
            List<String> leading,
            String column,
            Collection<String> ids)
            throws SQLException {
        long removed = 0;
        for (OneOf batch : OneOf.batches(sql, column, ids)) {
            try (PreparedStatement ps = c.prepareStatement(delete + " AND " + batch.condition())) {
                batch.bind(ps, bind(ps, leading));
                removed += ps.executeUpdate();
            }
        }
        return removed;
    }

    /**
     * The first column of every row {@code select + " AND "} a condition that {@code column} is one
     * of {@code ids} gives, with {@code leading} bound first and then the ids, in {@link
     * OneOf#batches}.
     */
    public static List<String> stringsIn(
            Connection c,
            SqlAccess sql,
            String select,
            List<String> leading,
            String column,
            Collection<String> ids)
            throws SQLException {
        List<String> out = new ArrayList<>();
        for (OneOf batch : OneOf.batches(sql, column, ids)) {
            try (PreparedStatement ps = c.prepareStatement(select + " AND " + batch.condition())) {
                batch.bind(ps, bind(ps, leading));
                read(ps, out);
            }
        }
        return out;
    }

    private static void read(PreparedStatement ps, List<String> out) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
    }

    /** Binds {@code args} from the first parameter on: the index of the parameter after them. */
    private static int bind(PreparedStatement ps, List<String> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            ps.setString(i + 1, args.get(i));
        }
        return args.size() + 1;
    }
}
