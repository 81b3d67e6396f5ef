package dev.cairn.judge.store;

import dev.cairn.judge.Policy;
import dev.cairn.judge.PolicyRegistry;
import dev.cairn.store.SqlAccess;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/** {@link PolicyRepository} over {@link SqlAccess}. Thread-safe. */
final class SqlPolicyRepository implements PolicyRepository {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    private final SqlAccess sql;

    SqlPolicyRepository(SqlAccess sql) {
        this.sql = Objects.requireNonNull(sql, "sql");
    }

    @Override
    public boolean put(String namespace, String name, String document) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "illegal policy name: '" + name + "', must match " + NAME.pattern());
        }
        Policy.parse(name, document);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return sql.write(
                namespace,
                c -> {
                    int updated;
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "UPDATE judge_policies SET document = ?, updated_at = ?"
                                            + " WHERE namespace = ? AND name = ?")) {
                        ps.setString(1, document);
                        sql.bindInstant(ps, 2, now);
                        ps.setString(3, namespace);
                        ps.setString(4, name);
                        updated = ps.executeUpdate();
                    }
                    if (updated == 0) {
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "INSERT INTO judge_policies (namespace, name, document,"
                                                + " updated_at) VALUES (?, ?, ?, ?)")) {
                            ps.setString(1, namespace);
                            ps.setString(2, name);
                            ps.setString(3, document);
                            sql.bindInstant(ps, 4, now);
                            ps.executeUpdate();
                        }
                    }
                    return updated > 0;
                });
    }

    @Override
    public Optional<StoredPolicy> find(String namespace, String name) {
        return query(namespace, name).stream().findFirst();
    }

    @Override
    public List<StoredPolicy> list(String namespace) {
        return query(namespace, null);
    }

    @Override
    public PolicyRegistry registry(String namespace) {
        List<Policy> policies = new ArrayList<>();
        for (StoredPolicy p : list(namespace)) {
            policies.add(Policy.parse(p.name(), p.document()));
        }
        return PolicyRegistry.of(policies);
    }

    private List<StoredPolicy> query(String namespace, String nameOrNull) {
        return sql.read(
                c -> {
                    String where = nameOrNull == null ? "" : " AND name = ?";
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT name, document, updated_at FROM judge_policies"
                                            + " WHERE namespace = ?"
                                            + where
                                            + " ORDER BY name")) {
                        ps.setString(1, namespace);
                        if (nameOrNull != null) {
                            ps.setString(2, nameOrNull);
                        }
                        List<StoredPolicy> out = new ArrayList<>();
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                out.add(
                                        new StoredPolicy(
                                                rs.getString("name"),
                                                rs.getString("document"),
                                                sql.readInstant(rs, "updated_at")));
                            }
                        }
                        return out;
                    }
                });
    }
}
