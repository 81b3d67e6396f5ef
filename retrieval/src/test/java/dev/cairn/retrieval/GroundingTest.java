package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.store.Authority;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GroundingTest {

    private static final String QUERY = "how long are nightly database backups kept";

    static RetrievedHit hit(double fused, double dense, int lexicalRank, int denseRank) {
        return hit(fused, dense, lexicalRank, denseRank, "");
    }

    static RetrievedHit hit(
            double fused, double dense, int lexicalRank, int denseRank, String text) {
        return hit("d" + lexicalRank, 0, fused, dense, lexicalRank, denseRank, text);
    }

    /** Chunk {@code chunk} of {@code document}; its lexical score is 10 / its lexical rank. */
    static RetrievedHit hit(
            String document,
            int chunk,
            double fused,
            double dense,
            int lexicalRank,
            int denseRank,
            String text) {
        return new RetrievedHit(
                document + "#" + chunk,
                document,
                "",
                text,
                "",
                fused,
                Authority.UNVERIFIED,
                Map.of(Signal.LEXICAL, lexicalRank, Signal.DENSE, denseRank),
                Map.of(Signal.DENSE, dense, Signal.LEXICAL, 10.0 / lexicalRank));
    }

    @Test
    void noHitsIsNoGrounding() {
        assertThat(Grounding.score(QUERY, List.of())).isZero();
        assertThat(Grounding.features(QUERY, List.of())).isNull();
    }

    @Test
    void scoreIsTheFittedLogisticOfTheTopHitsFeatures() {
        List<RetrievedHit> hits =
                List.of(
                        hit(0.03, 0.85, 1, 2, "Backups of the database are kept for 30 days."),
                        hit(0.024, 0.8, 2, 1, "The database runs on three nodes."));
        Grounding.Features f = Grounding.features(QUERY, hits);
        // both signals rank it in their top 3, fused margin (0.03 - 0.024) / 0.03 = 0.2
        assertThat(f.dense()).isEqualTo(0.85);
        assertThat(f.agreement()).isEqualTo(1.0);
        assertThat(f.margin()).isCloseTo(0.2, within(1e-12));
        assertThat(f.denseLead()).isCloseTo(0.05, within(1e-12));
        assertThat(f.lexicalLead()).isCloseTo(0.5, within(1e-12));
        double z = Grounding.INTERCEPT;
        for (int k = 0; k < f.values().length; k++) {
            z += Grounding.COEFFICIENTS[k] * f.values()[k];
        }
        assertThat(Grounding.score(QUERY, hits)).isCloseTo(1 / (1 + Math.exp(-z)), within(1e-12));
    }

    @Test
    void coverageWeighsTheQueryTermsFewHitsContain() {
        // "database" is in both hits and weighs least; "backups" and "kept" only in the first
        double[] c =
                Grounding.coverages(
                        QUERY,
                        List.of(
                                hit(0.03, 0.8, 1, 1, "Backups of the database are kept 30 days."),
                                hit(0.02, 0.8, 2, 2, "The database runs nightly on three nodes.")));
        // query terms after stop words and stemming: how, long, nightli, databas, backup, kept
        double absent = Math.log(3.0 / 1.0) + 1; // how, long: in neither hit
        double rare = Math.log(3.0 / 2.0) + 1; // nightli, backup, kept: in one of the two
        double common = Math.log(3.0 / 3.0) + 1; // databas: in both
        double total = 2 * absent + 3 * rare + common;
        assertThat(c[0]).isCloseTo((2 * rare + common) / total, within(1e-9));
        assertThat(c[1]).isCloseTo((rare + common) / total, within(1e-9));
        assertThat(c[0]).isGreaterThan(c[1]);
    }

    @Test
    void aTopHitThatSaysWhatTheQueryAsksScoresHigher() {
        RetrievedHit runnerUp = hit(0.02, 0.7, 2, 2, "The database runs on three nodes.");
        double vague =
                Grounding.score(QUERY, List.of(hit(0.021, 0.8, 1, 1, "Database nodes."), runnerUp));
        double answering =
                Grounding.score(
                        QUERY,
                        List.of(
                                hit(0.021, 0.8, 1, 1, "Nightly database backups are kept 30 days."),
                                runnerUp));
        assertThat(answering).isGreaterThan(vague);
    }

    @Test
    void moreSimilarAgreedAndLeadingTopHitsScoreHigher() {
        RetrievedHit runnerUp = hit(0.02, 0.7, 2, 2);
        double weak = Grounding.score(QUERY, List.of(hit(0.021, 0.70, 9, 8), runnerUp));
        double similar = Grounding.score(QUERY, List.of(hit(0.021, 0.85, 9, 8), runnerUp));
        double agreed = Grounding.score(QUERY, List.of(hit(0.021, 0.85, 1, 1), runnerUp));
        double leading =
                Grounding.score(QUERY, List.of(hit(0.021, 0.85, 1, 1), hit(0.02, 0.6, 2, 2)));
        assertThat(weak).isLessThan(similar);
        assertThat(similar).isLessThan(agreed);
        assertThat(agreed).isLessThan(leading);
        assertThat(leading).isLessThanOrEqualTo(1.0);
        assertThat(weak).isGreaterThanOrEqualTo(0.0);
    }

    @Test
    void anotherChunkOfTheTopDocumentIsNoCompetitor() {
        RetrievedHit top = hit("a", 0, 0.03, 0.85, 1, 1, "Nightly database backups are kept.");
        RetrievedHit sameDocument = hit("a", 1, 0.029, 0.84, 2, 2, "Backups stay in two regions.");
        RetrievedHit other = hit(0.02, 0.7, 3, 3, "The database runs on three nodes.");
        Grounding.Features f = Grounding.features(QUERY, List.of(top, sameDocument, other));
        // leads are measured against the other document (dense 0.7, lexical 10 / 3), not a#1
        // (dense 0.84, lexical 10 / 2)
        assertThat(f.denseLead()).isCloseTo(0.15, within(1e-12));
        assertThat(f.lexicalLead()).isCloseTo((10.0 - 10.0 / 3) / 10.0, within(1e-12));
    }

    @Test
    void defaultThresholdsSplitThePlanAtPointEightAndPointFive() {
        Grounding.Thresholds t = Grounding.Thresholds.DEFAULTS;
        assertThat(t.plan(0.8)).isEqualTo(Plan.DIRECT);
        assertThat(t.plan(0.79)).isEqualTo(Plan.SCOPED);
        assertThat(t.plan(0.5)).isEqualTo(Plan.SCOPED);
        assertThat(t.plan(0.49)).isEqualTo(Plan.DEFER);
        assertThatThrownBy(() -> new Grounding.Thresholds(0.4, 0.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scoped 0.5");
    }
}
