package dev.cairn.memory.store;

import dev.cairn.store.OneOf;
import dev.cairn.store.SqlAccess;
import java.util.ArrayList;
import java.util.List;

/**
 * The WHERE clause of a {@link MemoryFilter} over the {@code memories} table, with its parameters
 * in order (strings, booleans and the ids as one {@link OneOf}). Text and tags match by {@code
 * LIKE} with {@code \\} as escape.
 *
 * @param sql the condition, without {@code WHERE}
 * @param args its parameters
 */
record MemoryWhere(String sql, List<Object> args) {

    MemoryWhere {
        java.util.Objects.requireNonNull(sql, "sql");
        args = List.copyOf(args);
    }

    /** The condition selecting {@code filter}'s memories of {@code namespace}. */
    static MemoryWhere of(SqlAccess.Dialect dialect, String namespace, MemoryFilter filter) {
        StringBuilder where = new StringBuilder("namespace = ?");
        List<Object> args = new ArrayList<>();
        args.add(namespace);
        if (!filter.text().isEmpty()) {
            where.append(" AND lower(content) LIKE ? ESCAPE '\\'");
            args.add("%" + escapeLike(filter.text().toLowerCase(java.util.Locale.ROOT)) + "%");
        }
        inList(where, args, "type", filter.types().stream().map(Enum::name).sorted().toList());
        inList(where, args, "status", filter.statuses().stream().map(Enum::name).sorted().toList());
        inList(
                where,
                args,
                "source_kind",
                filter.sources().stream().map(Enum::name).sorted().toList());
        if (!filter.ids().isEmpty()) {
            // at most MemoryFilter.MAX_IDS, in one statement: the count and the pages need them all
            OneOf ids = new OneOf(dialect, "id", filter.ids());
            where.append(" AND ").append(ids.condition());
            args.add(ids);
        }
        for (String tag : filter.tags()) {
            where.append(" AND CAST(tags AS TEXT) LIKE ? ESCAPE '\\'");
            args.add(
                    "%"
                            + escapeLike(
                                    MemoryColumns.toJson(List.of(tag))
                                            .substring(1)
                                            .replaceAll("]$", ""))
                            + "%");
        }
        equal(where, args, "user_id", filter.userId());
        equal(where, args, "agent_id", filter.agentId());
        equal(where, args, "session_name", filter.sessionName());
        equal(where, args, "task_name", filter.taskName());
        equal(where, args, "parent_task", filter.parentTask());
        if (!filter.includeDisabled()) {
            where.append(" AND disabled = ?");
            args.add(Boolean.FALSE);
        }
        if (!filter.includeDeleted()) {
            where.append(" AND deleted = ?");
            args.add(Boolean.FALSE);
        }
        return new MemoryWhere(where.toString(), args);
    }

    /**
     * An IN list of enum names: its generic plan compares a row with as many parameters as the enum
     * has constants at most, as a plan for the values does.
     */
    private static void inList(
            StringBuilder where, List<Object> args, String column, List<String> values) {
        if (values.isEmpty()) {
            return;
        }
        where.append(" AND ").append(column).append(" IN (").append(placeholders(values.size()));
        where.append(')');
        args.addAll(values);
    }

    private static void equal(StringBuilder where, List<Object> args, String column, String value) {
        if (!value.isEmpty()) {
            where.append(" AND ").append(column).append(" = ?");
            args.add(value);
        }
    }

    /** {@code n} comma-separated parameter markers. */
    private static String placeholders(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }

    static String escapeLike(String s) {
        return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
