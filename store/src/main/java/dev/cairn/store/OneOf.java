package dev.cairn.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * A WHERE condition "{@code column} is one of these text values" in the store's dialect, with its
 * values to bind: the one way the modules' repositories select or delete rows by a list of ids.
 *
 * <p>On PostgreSQL the values are one array parameter, {@code column IN (SELECT
 * unnest(?::text[]))}, not a list {@code IN (?, ?, ...)}. The JDBC driver prepares a statement on
 * the server from its fifth use, and PostgreSQL may then plan it once for any values (a generic
 * plan). Unless the column keys an index, that plan compares each row the rest of the condition
 * selects with every listed parameter in turn: PostgreSQL hashes a list only when it holds
 * constants. Deleting the feedback on a user's 5,000 memories (50,000 rows in the namespace, the
 * target column in no index, batches of 500) took 5.0 s under the generic plan, 0.1 s under plans
 * for the values. As a semi join with the unnested array the generic plan hashes the values (0.08
 * s), and where the column keys an index it probes the index once per value, as the list did. An
 * {@code = ANY(?)} array is compared element by element like the list (2.6 s). Measured on
 * PostgreSQL 15: docs/operations.md, "Lists of ids on PostgreSQL".
 *
 * <p>On SQLite a list of parameters: SQLite has no arrays, and builds an index of the listed values
 * once per statement, whatever the parameters.
 *
 * @param dialect the dialect the condition is written in
 * @param column the column (as the statement names it, e.g. {@code d.id})
 * @param values the values, at least one
 */
public record OneOf(SqlAccess.Dialect dialect, String column, List<String> values) {

    /**
     * Most values one statement binds, in both dialects (SQLite takes up to 32,766 parameters).
     * Other batch sizes on PostgreSQL favour one kind of statement over the other: the feedback on
     * 5,000 memories, whose column keys no index, is deleted in 18 ms as one batch, 80 ms as ten;
     * 20,000 documents are looked up by primary key in 110 ms in batches of 500, 161 ms in batches
     * of 10,000 (as IN lists of 500: 98 ms).
     */
    public static final int BATCH = 500;

    public OneOf {
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(column, "column");
        values = List.copyOf(values);
        if (values.isEmpty()) {
            throw new IllegalArgumentException("illegal values: none, must be at least one");
        }
    }

    /**
     * {@code values} without repeats, in their first order, in batches of at most {@link #BATCH};
     * none when there are no values.
     */
    public static List<OneOf> batches(SqlAccess sql, String column, Collection<String> values) {
        List<String> distinct = List.copyOf(new LinkedHashSet<>(values));
        List<OneOf> batches = new ArrayList<>();
        for (int from = 0; from < distinct.size(); from += BATCH) {
            batches.add(
                    new OneOf(
                            sql.dialect(),
                            column,
                            distinct.subList(from, Math.min(distinct.size(), from + BATCH))));
        }
        return batches;
    }

    /** The condition, without {@code AND}; its parameters are bound by {@link #bind}. */
    public String condition() {
        if (dialect == SqlAccess.Dialect.POSTGRES) {
            return column + " IN (SELECT unnest(?::text[]))";
        }
        return column
                + " IN ("
                + String.join(", ", java.util.Collections.nCopies(values.size(), "?"))
                + ")";
    }

    /**
     * Binds the values to the condition's parameters, the first at {@code index}: the index of the
     * parameter after them.
     */
    public int bind(PreparedStatement ps, int index) throws SQLException {
        if (dialect == SqlAccess.Dialect.POSTGRES) {
            ps.setArray(index, ps.getConnection().createArrayOf("text", values.toArray()));
            return index + 1;
        }
        int i = index;
        for (String value : values) {
            ps.setString(i++, value);
        }
        return i;
    }
}
