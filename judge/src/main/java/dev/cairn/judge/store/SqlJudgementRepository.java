package dev.cairn.judge.store;

import dev.cairn.judge.Judgement;
import dev.cairn.judge.RetrievalPlan;
import dev.cairn.store.Change;
import dev.cairn.store.SqlAccess;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** {@link JudgementRepository} over {@link SqlAccess}. Thread-safe. */
final class SqlJudgementRepository implements JudgementRepository {

    private final SqlAccess sql;

    SqlJudgementRepository(SqlAccess sql) {
        this.sql = Objects.requireNonNull(sql, "sql");
    }

    @Override
    public StoredJudgement save(
            String namespace, AnswerTrace answer, Judgement judgement, String similarity) {
        String answerId = "ans_" + UUID.randomUUID().toString().replace("-", "");
        String id = "jdg_" + UUID.randomUUID().toString().replace("-", "");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return sql.write(
                namespace,
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "INSERT INTO answer_traces (namespace, id, trace_id, query,"
                                            + " answer, evidence, policy, plan, created_at)"
                                            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                        ps.setString(1, namespace);
                        ps.setString(2, answerId);
                        ps.setString(3, answer.traceId());
                        ps.setString(4, answer.query());
                        ps.setString(5, answer.answer());
                        sql.bindJson(
                                ps, 6, JudgementJson.write(JudgementJson.view(answer.evidence())));
                        ps.setString(7, answer.policy());
                        ps.setString(8, answer.plan().name());
                        sql.bindInstant(ps, 9, now);
                        ps.executeUpdate();
                    }
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "INSERT INTO answer_judgements (namespace, id, answer_id,"
                                            + " judgement, citation_coverage, citation_precision,"
                                            + " contradiction_rate, policy_compliance, grounded,"
                                            + " similarity, created_at)"
                                            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                        ps.setString(1, namespace);
                        ps.setString(2, id);
                        ps.setString(3, answerId);
                        sql.bindJson(ps, 4, JudgementJson.write(judgement));
                        ps.setDouble(5, judgement.citationCoverage());
                        ps.setDouble(6, judgement.citationPrecision());
                        ps.setDouble(7, judgement.contradictionRate());
                        ps.setDouble(8, judgement.policyCompliance());
                        ps.setBoolean(9, judgement.grounded());
                        ps.setString(10, similarity);
                        sql.bindInstant(ps, 11, now);
                        ps.executeUpdate();
                    }
                    sql.appendChange(c, namespace, Change.Kind.JUDGEMENT, id, Change.Op.UPSERT);
                    return new StoredJudgement(
                            id, answerId, namespace, answer, judgement, similarity, now);
                });
    }

    @Override
    public Optional<StoredJudgement> find(String namespace, String id) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT j.answer_id, j.judgement, j.similarity, j.created_at,"
                                            + " a.trace_id, a.query, a.answer, a.evidence,"
                                            + " a.policy, a.plan"
                                            + " FROM answer_judgements j JOIN answer_traces a"
                                            + " ON a.namespace = j.namespace AND a.id = j.answer_id"
                                            + " WHERE j.namespace = ? AND j.id = ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, id);
                        try (ResultSet rs = ps.executeQuery()) {
                            if (!rs.next()) {
                                return Optional.empty();
                            }
                            AnswerTrace answer =
                                    new AnswerTrace(
                                            rs.getString("query"),
                                            rs.getString("answer"),
                                            JudgementJson.readEvidence(rs.getString("evidence")),
                                            rs.getString("trace_id"),
                                            rs.getString("policy"),
                                            RetrievalPlan.valueOf(rs.getString("plan")));
                            return Optional.of(
                                    new StoredJudgement(
                                            id,
                                            rs.getString("answer_id"),
                                            namespace,
                                            answer,
                                            JudgementJson.readJudgement(rs.getString("judgement")),
                                            rs.getString("similarity"),
                                            sql.readInstant(rs, "created_at")));
                        }
                    }
                });
    }
}
