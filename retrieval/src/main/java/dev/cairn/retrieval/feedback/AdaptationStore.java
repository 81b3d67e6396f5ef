package dev.cairn.retrieval.feedback;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.store.SqlAccess;
import dev.cairn.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * A namespace's trained adapters of one kind: retrieve's in {@code retrieval_adaptations}, recall's
 * in {@code memory_adaptations} (the same columns; each kind numbers its versions and has its
 * active one). Every training run adds a version, at most one is {@link Adaptation.State#ACTIVE},
 * and a rollback returns to the version the active one replaced. Thread-safe (each change is one
 * transaction under the namespace's lock).
 */
public final class AdaptationStore {

    /** The table of retrieve's adaptations (documents). */
    public static final String DOCUMENTS_TABLE = "retrieval_adaptations";

    /** The table of recall's adaptations (memories). */
    public static final String MEMORIES_TABLE = "memory_adaptations";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLUMNS =
            "version, state, replaces, dense_weight, dimensions, matrix, report, created_at,"
                    + " prior_weight, prior, fusion";

    private final SqlAccess sql;
    private final String table;

    private AdaptationStore(SqlAccess sql, String table) {
        this.sql = sql;
        this.table = table;
    }

    /** Retrieve's adaptations, trained from document and chunk judgments. */
    public static AdaptationStore documents(SqlAccess sql) {
        return new AdaptationStore(sql, DOCUMENTS_TABLE);
    }

    /** Recall's adaptations, trained from memory judgments. */
    public static AdaptationStore memories(SqlAccess sql) {
        return new AdaptationStore(sql, MEMORIES_TABLE);
    }

    /**
     * Stores a newly trained adapter and the prior and learned fusion that go with it as the next
     * version: active (retiring the active one) when {@code report.activated()}, else rejected.
     */
    public Adaptation add(
            String namespace,
            QueryAdapter adapter,
            double denseWeight,
            JudgedPrior prior,
            LearnedFusion fusion,
            TuneReport report) {
        return sql.write(
                namespace,
                c -> {
                    int version = 1;
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT max(version) FROM " + table + " WHERE namespace = ?")) {
                        ps.setString(1, namespace);
                        try (ResultSet rs = ps.executeQuery()) {
                            if (rs.next()) {
                                version = rs.getInt(1) + 1;
                            }
                        }
                    }
                    int replaces = 0;
                    if (report.activated()) {
                        Optional<Adaptation> active = active(c, namespace);
                        if (active.isPresent()) {
                            replaces = active.get().version();
                            setState(c, namespace, replaces, Adaptation.State.RETIRED);
                        }
                    }
                    Adaptation added =
                            new Adaptation(
                                    version,
                                    report.activated()
                                            ? Adaptation.State.ACTIVE
                                            : Adaptation.State.REJECTED,
                                    replaces,
                                    adapter,
                                    denseWeight,
                                    prior,
                                    fusion,
                                    report,
                                    Instant.now());
                    insert(c, namespace, added);
                    return added;
                });
    }

    /**
     * Stores exported versions as they were (state, what each replaced, time), replacing a stored
     * version of the same number, in one transaction.
     *
     * @throws IllegalArgumentException when more than one of them is active
     */
    public void restore(String namespace, List<Adaptation> versions) {
        if (versions.stream().filter(a -> a.state() == Adaptation.State.ACTIVE).count() > 1) {
            throw new IllegalArgumentException("illegal adaptations: more than one is active");
        }
        if (versions.isEmpty()) {
            return;
        }
        sql.write(
                namespace,
                c -> {
                    boolean activates =
                            versions.stream().anyMatch(a -> a.state() == Adaptation.State.ACTIVE);
                    if (activates) {
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "UPDATE "
                                                + table
                                                + " SET state = 'RETIRED'"
                                                + " WHERE namespace = ? AND state = 'ACTIVE'")) {
                            ps.setString(1, namespace);
                            ps.executeUpdate();
                        }
                    }
                    for (Adaptation a : versions) {
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "DELETE FROM "
                                                + table
                                                + " WHERE namespace = ?"
                                                + " AND version = ?")) {
                            ps.setString(1, namespace);
                            ps.setInt(2, a.version());
                            ps.executeUpdate();
                        }
                        insert(c, namespace, a);
                    }
                    return null;
                });
    }

    private void insert(Connection c, String namespace, Adaptation a) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO "
                                + table
                                + " (namespace, "
                                + COLUMNS
                                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, namespace);
            ps.setInt(2, a.version());
            ps.setString(3, a.state().name());
            ps.setInt(4, a.replaces());
            ps.setDouble(5, a.denseWeight());
            ps.setInt(6, a.adapter().dimensions());
            ps.setBytes(7, a.adapter().toBytes());
            sql.bindJson(ps, 8, json(a.report()));
            sql.bindInstant(ps, 9, a.createdAt());
            ps.setDouble(10, a.prior().weight());
            sql.bindJson(ps, 11, json(a.prior().relevantQueries()));
            sql.bindJson(ps, 12, json(a.fusion().weights()));
            ps.executeUpdate();
        }
    }

    /** The namespace's active adaptation. */
    public Optional<Adaptation> active(String namespace) {
        return sql.read(c -> active(c, namespace));
    }

    /** The version of the namespace's active adaptation, 0 when none (no matrix is read). */
    public int activeVersion(String namespace) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT version FROM "
                                            + table
                                            + " WHERE namespace = ? AND state = 'ACTIVE'")) {
                        ps.setString(1, namespace);
                        try (ResultSet rs = ps.executeQuery()) {
                            return rs.next() ? rs.getInt(1) : 0;
                        }
                    }
                });
    }

    /** Every version of the namespace, newest first. */
    public List<Adaptation> all(String namespace) {
        return sql.read(c -> select(c, namespace, "", " ORDER BY version DESC"));
    }

    /**
     * Rolls the active adaptation back: it becomes {@link Adaptation.State#ROLLED_BACK} and the
     * version it replaced, if any, is active again.
     *
     * @return the adaptation active now, empty when none
     * @throws NoSuchElementException when the namespace has no active adaptation
     */
    public Optional<Adaptation> rollback(String namespace) {
        return sql.write(
                namespace,
                c -> {
                    Adaptation active =
                            active(c, namespace)
                                    .orElseThrow(
                                            () ->
                                                    new NoSuchElementException(
                                                            "namespace '"
                                                                    + namespace
                                                                    + "' has no active adaptation"));
                    setState(c, namespace, active.version(), Adaptation.State.ROLLED_BACK);
                    if (active.replaces() == 0) {
                        return Optional.<Adaptation>empty();
                    }
                    setState(c, namespace, active.replaces(), Adaptation.State.ACTIVE);
                    return active(c, namespace);
                });
    }

    /** Deletes every version of the namespace (the evaluation's fresh start). */
    public void clear(String namespace) {
        sql.write(
                namespace,
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement("DELETE FROM " + table + " WHERE namespace = ?")) {
                        ps.setString(1, namespace);
                        return ps.executeUpdate();
                    }
                });
    }

    private Optional<Adaptation> active(Connection c, String namespace) throws SQLException {
        List<Adaptation> found = select(c, namespace, " AND state = 'ACTIVE'", "");
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
    }

    private void setState(Connection c, String namespace, int version, Adaptation.State s)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "UPDATE "
                                + table
                                + " SET state = ?"
                                + " WHERE namespace = ? AND version = ?")) {
            ps.setString(1, s.name());
            ps.setString(2, namespace);
            ps.setInt(3, version);
            ps.executeUpdate();
        }
    }

    private List<Adaptation> select(Connection c, String namespace, String and, String order)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT "
                                + COLUMNS
                                + " FROM "
                                + table
                                + " WHERE namespace = ?"
                                + and
                                + order)) {
            ps.setString(1, namespace);
            List<Adaptation> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(
                            new Adaptation(
                                    rs.getInt("version"),
                                    Adaptation.State.valueOf(rs.getString("state")),
                                    rs.getInt("replaces"),
                                    QueryAdapter.fromBytes(
                                            rs.getInt("dimensions"), rs.getBytes("matrix")),
                                    rs.getDouble("dense_weight"),
                                    new JudgedPrior(
                                            rs.getDouble("prior_weight"),
                                            parse(rs.getString("prior"), PRIOR)),
                                    new LearnedFusion(
                                            parse(rs.getString("fusion"), double[].class)),
                                    parse(rs.getString("report"), TuneReport.class),
                                    sql.readInstant(rs, "created_at")));
                }
            }
            return out;
        }
    }

    private static final TypeReference<Map<String, Integer>> PRIOR = new TypeReference<>() {};

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName(), e);
        }
    }

    private static <T> T parse(String json, Class<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new StoreException(
                    "unreadable " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    private static <T> T parse(String json, TypeReference<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new StoreException("unreadable adaptation prior: " + e.getOriginalMessage(), e);
        }
    }
}
