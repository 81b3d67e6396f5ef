package dev.cairn.agents.conversation;

import dev.cairn.store.SqlAccess;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** A stored message's columns and how a row of them reads back. Thread-safe. */
final class MessageRows {

    /** The columns a SELECT names for {@link #read} (which reads them by name). */
    static final String COLUMNS =
            "seq, conversation_id, query_id, message, role, content, flagged, created_at, flags";

    private final SqlAccess sql;

    MessageRows(SqlAccess sql) {
        this.sql = sql;
    }

    /** Runs {@code ps}, a SELECT of {@link #COLUMNS}, and reads every row. */
    List<StoredMessage> read(PreparedStatement ps) throws SQLException {
        List<StoredMessage> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(row(rs));
            }
        }
        return out;
    }

    /** The message of the current row of a SELECT of {@link #COLUMNS}. */
    StoredMessage row(ResultSet rs) throws SQLException {
        return new StoredMessage(
                rs.getLong("seq"),
                rs.getString("conversation_id"),
                rs.getString("query_id"),
                rs.getString("message"),
                rs.getString("role"),
                rs.getString("content"),
                rs.getBoolean("flagged"),
                sql.readInstant(rs, "created_at"),
                flags(rs.getString("flags")));
    }

    private static List<String> flags(String column) {
        return column == null || column.isEmpty() ? List.of() : List.of(column.split(","));
    }
}
