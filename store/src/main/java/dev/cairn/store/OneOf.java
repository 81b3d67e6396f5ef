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
 * plan). For a list of parameters that plan compares every row the rest of the condition selects
 * with every parameter in turn, since PostgreSQL hashes a list only when it holds constants; so
 * when the column does not key an index (a feedback row's target, an answer's trace) a batch of 500
 * costs the namespace times 500 comparisons. With 50,000 rows in the namespace, deleting the
 * feedback on 500 memories took 563 ms under the generic plan and 8 ms under a plan for the values;
 * as a semi join with the unnested array the generic plan hashes the values instead (18 ms), and
 * probes the index once per value where the column keys one, as the list did. An {@code = ANY(?)}
 * array compares each row with each element like the list (381 ms), and PostgreSQL chose that plan
 * itself after ten uses. The measurements, per statement: docs/operations.md, "Lists of ids on
 * PostgreSQL".
 *
 * <p>On SQLite a list of parameters: SQLite has no arrays, and looks each listed value up in an
 * index, or in a b-tree it builds of the list, whatever the parameters.
 *
 * @param dialect the dialect the condition is written in
 * @param column the column (as the statement names it, e.g. {@code d.id})
 * @param values the values, at least one
 */
public record OneOf(SqlAccess.Dialect dialect, String column, List<String> values) {

    /**
     * Most values one SQLite statement binds: one parameter each (SQLite allows 32,766); what the
     * IN lists of both dialects were batched by before PostgreSQL read arrays.
     */
    public static final int SQLITE_BATCH = 500;

    /**
     * Most values one PostgreSQL statement binds, as one array parameter of some hundred kilobytes.
     * Larger than {@link #SQLITE_BATCH} because a statement whose column keys no index reads the
     * namespace once per batch: the feedback on a user's 5,000 memories, 50,000 rows in the
     * namespace, deleted in 16 ms in one statement, 10 of 500 took 10 times 18 ms.
     */
    public static final int POSTGRES_BATCH = 10_000;

    public OneOf {
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(column, "column");
        values = List.copyOf(values);
        if (values.isEmpty()) {
            throw new IllegalArgumentException("illegal values: none, must be at least one");
        }
    }

    /**
     * {@code values} without repeats, in their first order, in batches of at most {@link
     * #batchSize} for {@code sql}'s dialect; none when there are no values.
     */
    public static List<OneOf> batches(SqlAccess sql, String column, Collection<String> values) {
        List<String> distinct = List.copyOf(new LinkedHashSet<>(values));
        int size = batchSize(sql.dialect());
        List<OneOf> batches = new ArrayList<>();
        for (int from = 0; from < distinct.size(); from += size) {
            batches.add(
                    new OneOf(
                            sql.dialect(),
                            column,
                            distinct.subList(from, Math.min(distinct.size(), from + size))));
        }
        return batches;
    }

    /** Most values one statement binds in {@code dialect}. */
    public static int batchSize(SqlAccess.Dialect dialect) {
        return dialect == SqlAccess.Dialect.POSTGRES ? POSTGRES_BATCH : SQLITE_BATCH;
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
