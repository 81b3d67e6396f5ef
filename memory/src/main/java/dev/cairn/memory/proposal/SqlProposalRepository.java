package dev.cairn.memory.proposal;

import dev.cairn.memory.MemoryType;
import dev.cairn.store.Change;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.SqlAccess;
import dev.cairn.store.SqlColumns;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link ProposalRepository} over {@link SqlAccess}. Ids are {@code p-} plus 12 hex digits of the
 * creation time in milliseconds plus 16 random hex digits, so id order is creation order. The
 * memory type of a proposal is kept in its {@code type} column as {@code memory:FACT}. Thread-safe.
 */
final class SqlProposalRepository implements ProposalRepository {

    private static final String COLUMNS =
            "id, type, title, description, content, task_name, agent_name, status, flagged,"
                    + " reviewer, review_note, reviewed_at, applied_memory_id, applied_by,"
                    + " applied_at, created_at, updated_at";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SqlAccess sql;
    private final Clock clock;

    SqlProposalRepository(SqlAccess sql, Clock clock) {
        this.sql = Objects.requireNonNull(sql, "sql");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    static String newId(Instant now) {
        byte[] random = new byte[8];
        RANDOM.nextBytes(random);
        return "p-" + String.format("%012x", now.toEpochMilli()) + HexFormat.of().formatHex(random);
    }

    @Override
    public Proposal create(String namespace, NewProposal p, boolean flagged) {
        Instant now = clock.instant();
        Proposal proposal =
                new Proposal(
                        newId(now),
                        p.type(),
                        p.title(),
                        p.description(),
                        p.content(),
                        p.taskName(),
                        p.agentName(),
                        p.memoryType(),
                        ProposalStatus.PENDING,
                        flagged,
                        "",
                        "",
                        Instant.EPOCH,
                        "",
                        "",
                        Instant.EPOCH,
                        now,
                        now);
        return sql.write(
                namespace,
                c -> {
                    insert(c, namespace, proposal);
                    return proposal;
                });
    }

    @Override
    public boolean restore(String namespace, Proposal proposal) {
        return sql.write(
                namespace,
                c -> {
                    Optional<Proposal> stored = find(c, namespace, proposal.id());
                    if (stored.isPresent() && stored.get().equals(proposal)) {
                        return false;
                    }
                    if (stored.isPresent()) {
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "DELETE FROM proposals WHERE namespace = ? AND id = ?")) {
                            ps.setString(1, namespace);
                            ps.setString(2, proposal.id());
                            ps.executeUpdate();
                        }
                    }
                    insert(c, namespace, proposal);
                    return true;
                });
    }

    /** Inserts the proposal as it is, with its {@code PROPOSAL} change row. */
    private void insert(Connection c, String namespace, Proposal proposal) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO proposals (namespace, "
                                + COLUMNS
                                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                                + " ?, ?, ?, ?)")) {
            int i = 1;
            ps.setString(i++, namespace);
            ps.setString(i++, proposal.id());
            ps.setString(i++, typeColumn(proposal.type(), proposal.memoryType()));
            ps.setString(i++, proposal.title());
            ps.setString(i++, proposal.description());
            ps.setString(i++, proposal.content());
            ps.setString(i++, proposal.taskName());
            ps.setString(i++, proposal.agentName());
            ps.setString(i++, proposal.status().wireName());
            ps.setBoolean(i++, proposal.flagged());
            ps.setString(i++, proposal.reviewer());
            ps.setString(i++, proposal.reviewNote());
            SqlColumns.bindOptionalInstant(sql, ps, i++, proposal.reviewTime());
            ps.setString(i++, proposal.appliedMemoryId());
            ps.setString(i++, proposal.appliedBy());
            SqlColumns.bindOptionalInstant(sql, ps, i++, proposal.applyTime());
            sql.bindInstant(ps, i++, proposal.createdAt());
            sql.bindInstant(ps, i, proposal.updatedAt());
            ps.executeUpdate();
        }
        sql.appendChange(c, namespace, Change.Kind.PROPOSAL, proposal.id(), Change.Op.UPSERT);
    }

    private static String typeColumn(ProposalType type, MemoryType memoryType) {
        return type == ProposalType.MEMORY
                ? type.wireName() + ":" + memoryType.name()
                : type.wireName();
    }

    @Override
    public Optional<Proposal> get(String namespace, String id) {
        return sql.read(c -> find(c, namespace, id));
    }

    private Optional<Proposal> find(Connection c, String namespace, String id) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT " + COLUMNS + " FROM proposals WHERE namespace = ? AND id = ?")) {
            ps.setString(1, namespace);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    @Override
    public Page<Proposal> list(String namespace, ProposalFilter filter, PageRequest page) {
        StringBuilder where = new StringBuilder(" FROM proposals WHERE namespace = ?");
        List<String> args = new ArrayList<>();
        args.add(namespace);
        if (!filter.types().isEmpty()) {
            where.append(" AND (");
            int n = 0;
            for (ProposalType t : filter.types()) {
                where.append(n++ == 0 ? "" : " OR ").append("type = ? OR type LIKE ?");
                args.add(t.wireName());
                args.add(t.wireName() + ":%");
            }
            where.append(")");
        }
        if (!filter.statuses().isEmpty()) {
            where.append(" AND status IN (")
                    .append(String.join(", ", filter.statuses().stream().map(s -> "?").toList()))
                    .append(")");
            filter.statuses().forEach(s -> args.add(s.wireName()));
        }
        if (!filter.taskName().isEmpty()) {
            where.append(" AND task_name = ?");
            args.add(filter.taskName());
        }
        if (!filter.agentName().isEmpty()) {
            where.append(" AND agent_name = ?");
            args.add(filter.agentName());
        }
        if (!filter.text().isEmpty()) {
            where.append(
                    " AND (LOWER(title) LIKE ? ESCAPE '\\' OR LOWER(description) LIKE ? ESCAPE"
                            + " '\\' OR LOWER(content) LIKE ? ESCAPE '\\')");
            String pattern = SqlColumns.containsPattern(filter.text());
            args.add(pattern);
            args.add(pattern);
            args.add(pattern);
        }
        return sql.read(
                c -> {
                    long total;
                    try (PreparedStatement ps = c.prepareStatement("SELECT count(*)" + where)) {
                        bind(ps, args);
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            total = rs.getLong(1);
                        }
                    }
                    List<String> pageArgs = new ArrayList<>(args);
                    String cursor = "";
                    if (!page.after().isEmpty()) {
                        cursor = " AND id < ?";
                        pageArgs.add(page.after());
                    }
                    List<Proposal> items = new ArrayList<>();
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + COLUMNS
                                            + where
                                            + cursor
                                            + " ORDER BY id DESC LIMIT "
                                            + (page.limit() + 1))) {
                        bind(ps, pageArgs);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                items.add(row(rs));
                            }
                        }
                    }
                    boolean more = items.size() > page.limit();
                    List<Proposal> shown = more ? items.subList(0, page.limit()) : items;
                    return new Page<>(
                            List.copyOf(shown),
                            total,
                            more ? PageRequest.cursorAfter(shown.getLast().id()) : "");
                });
    }

    private static void bind(PreparedStatement ps, List<String> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            ps.setString(i + 1, args.get(i));
        }
    }

    @Override
    public Proposal review(
            String namespace, String id, ProposalStatus decision, String reviewer, String note) {
        if (decision != ProposalStatus.ACCEPTED && decision != ProposalStatus.REJECTED) {
            throw new IllegalArgumentException(
                    "illegal review status: '"
                            + decision.wireName()
                            + "', must be accepted or rejected");
        }
        if (reviewer == null || reviewer.isBlank()) {
            throw new IllegalArgumentException("illegal reviewer: blank, must name who reviewed");
        }
        Instant now = clock.instant();
        return transition(
                namespace,
                id,
                "status = ?, reviewer = ?, review_note = ?, reviewed_at = ?, updated_at = ?",
                List.of(ProposalStatus.PENDING),
                "review",
                (ps, i) -> {
                    ps.setString(i++, decision.wireName());
                    ps.setString(i++, reviewer.strip());
                    ps.setString(i++, Objects.requireNonNull(note, "note"));
                    sql.bindInstant(ps, i++, now);
                    sql.bindInstant(ps, i++, now);
                    return i;
                });
    }

    @Override
    public Proposal markApplied(String namespace, String id, String memoryId, String appliedBy) {
        if (memoryId == null || memoryId.isBlank()) {
            throw new IllegalArgumentException("illegal memoryId: blank");
        }
        Instant now = clock.instant();
        return transition(
                namespace,
                id,
                "status = ?, applied_memory_id = ?, applied_by = ?, applied_at = ?,"
                        + " updated_at = ?",
                List.of(ProposalStatus.ACCEPTED),
                "apply",
                (ps, i) -> {
                    ps.setString(i++, ProposalStatus.APPLIED.wireName());
                    ps.setString(i++, memoryId);
                    ps.setString(i++, Objects.requireNonNull(appliedBy, "appliedBy").strip());
                    sql.bindInstant(ps, i++, now);
                    sql.bindInstant(ps, i++, now);
                    return i;
                });
    }

    @Override
    public Proposal archive(String namespace, String id) {
        Instant now = clock.instant();
        List<ProposalStatus> from =
                List.of(
                        ProposalStatus.PENDING,
                        ProposalStatus.ACCEPTED,
                        ProposalStatus.REJECTED,
                        ProposalStatus.APPLIED,
                        ProposalStatus.ARCHIVED);
        return transition(
                namespace,
                id,
                "status = ?, updated_at = ?",
                from,
                "archive",
                (ps, i) -> {
                    ps.setString(i++, ProposalStatus.ARCHIVED.wireName());
                    sql.bindInstant(ps, i++, now);
                    return i;
                });
    }

    @FunctionalInterface
    private interface Binder {
        int bind(PreparedStatement ps, int index) throws SQLException;
    }

    private Proposal transition(
            String namespace,
            String id,
            String set,
            List<ProposalStatus> from,
            String action,
            Binder binder) {
        return sql.write(
                namespace,
                c -> {
                    int updated;
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "UPDATE proposals SET "
                                            + set
                                            + " WHERE namespace = ? AND id = ? AND status IN ("
                                            + String.join(
                                                    ", ", from.stream().map(s -> "?").toList())
                                            + ")")) {
                        int i = binder.bind(ps, 1);
                        ps.setString(i++, namespace);
                        ps.setString(i++, id);
                        for (ProposalStatus s : from) {
                            ps.setString(i++, s.wireName());
                        }
                        updated = ps.executeUpdate();
                    }
                    Proposal current =
                            find(c, namespace, id)
                                    .orElseThrow(
                                            () ->
                                                    new NoSuchElementException(
                                                            "proposal '"
                                                                    + id
                                                                    + "' does not exist"));
                    if (updated == 0) {
                        throw new IllegalStateException(
                                "cannot "
                                        + action
                                        + " proposal '"
                                        + id
                                        + "': it is "
                                        + current.status().wireName()
                                        + ", must be "
                                        + String.join(
                                                " or ",
                                                from.stream()
                                                        .map(ProposalStatus::wireName)
                                                        .toList()));
                    }
                    sql.appendChange(c, namespace, Change.Kind.PROPOSAL, id, Change.Op.UPSERT);
                    return current;
                });
    }

    private Proposal row(ResultSet rs) throws SQLException {
        String typeColumn = rs.getString("type");
        int colon = typeColumn.indexOf(':');
        ProposalType type =
                ProposalType.parse(colon < 0 ? typeColumn : typeColumn.substring(0, colon));
        MemoryType memoryType =
                colon < 0 ? MemoryType.FACT : MemoryType.valueOf(typeColumn.substring(colon + 1));
        return new Proposal(
                rs.getString("id"),
                type,
                rs.getString("title"),
                rs.getString("description"),
                rs.getString("content"),
                rs.getString("task_name"),
                rs.getString("agent_name"),
                memoryType,
                ProposalStatus.parse(rs.getString("status")),
                rs.getBoolean("flagged"),
                rs.getString("reviewer"),
                rs.getString("review_note"),
                SqlColumns.readOptionalInstant(sql, rs, "reviewed_at").orElse(Instant.EPOCH),
                rs.getString("applied_memory_id"),
                rs.getString("applied_by"),
                SqlColumns.readOptionalInstant(sql, rs, "applied_at").orElse(Instant.EPOCH),
                sql.readInstant(rs, "created_at"),
                sql.readInstant(rs, "updated_at"));
    }
}
