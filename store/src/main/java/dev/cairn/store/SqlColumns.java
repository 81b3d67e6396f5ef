package dev.cairn.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Optional;

/**
 * Column helpers shared by the modules' SQL repositories: nullable instants and LIKE patterns, in
 * both dialects. Not API. Stateless, thread-safe.
 */
public final class SqlColumns {

    private SqlColumns() {}

    /** Binds {@code value}, or SQL NULL when empty. */
    public static void bindOptionalInstant(
            SqlAccess sql, PreparedStatement ps, int index, Optional<Instant> value)
            throws SQLException {
        if (value.isPresent()) {
            sql.bindInstant(ps, index, value.get());
        } else if (sql.dialect() == SqlAccess.Dialect.SQLITE) {
            ps.setNull(index, Types.INTEGER);
        } else {
            ps.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
        }
    }

    /** Reads an instant, empty when SQL NULL. */
    public static Optional<Instant> readOptionalInstant(SqlAccess sql, ResultSet rs, String column)
            throws SQLException {
        if (rs.getObject(column) == null) {
            return Optional.empty();
        }
        return Optional.of(sql.readInstant(rs, column));
    }

    /**
     * A {@code LIKE ... ESCAPE '\'} pattern matching {@code text} anywhere, lower-cased (compare
     * with {@code LOWER(column)}).
     */
    public static String containsPattern(String text) {
        String escaped =
                text.toLowerCase(java.util.Locale.ROOT)
                        .replace("\\", "\\\\")
                        .replace("%", "\\%")
                        .replace("_", "\\_");
        return "%" + escaped + "%";
    }

    /** A {@code LIKE ... ESCAPE '\'} pattern matching values that start with {@code prefix}. */
    public static String prefixPattern(String prefix) {
        return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }
}
