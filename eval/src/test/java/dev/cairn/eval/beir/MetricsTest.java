package dev.cairn.eval.beir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricsTest {

    private static final double EPS = 1e-9;

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    @Test
    void ndcgUsesLinearGainAndLog2Discount() {
        // relevant: a (2), b (1); run: x a y b
        Map<String, Integer> judged = Map.of("a", 2, "b", 1, "n", 0);
        double dcg = 2 / log2(3) + 1 / log2(5);
        double idcg = 2 / log2(2) + 1 / log2(3);

        assertThat(Metrics.ndcg(List.of("x", "a", "y", "b"), judged, 10))
                .isCloseTo(dcg / idcg, within(EPS));
        assertThat(Metrics.ndcg(List.of("a", "b"), judged, 10)).isCloseTo(1.0, within(EPS));
        assertThat(Metrics.ndcg(List.of("x", "a", "y", "b"), judged, 1)).isZero();
    }

    @Test
    void ndcgCutsTheIdealRankingAtK() {
        Map<String, Integer> judged = Map.of("a", 1, "b", 1, "c", 1);

        // k = 2: ideal DCG has two relevant documents, run finds one at rank 2
        assertThat(Metrics.ndcg(List.of("x", "a", "b"), judged, 2))
                .isCloseTo((1 / log2(3)) / (1 + 1 / log2(3)), within(EPS));
    }

    @Test
    void recallCountsRelevantDocumentsInTheTopK() {
        Map<String, Integer> judged = Map.of("a", 1, "b", 1, "c", 1, "n", 0);

        assertThat(Metrics.recall(List.of("a", "n", "x", "c"), judged, 100))
                .isCloseTo(2.0 / 3, within(EPS));
        assertThat(Metrics.recall(List.of("a", "n", "x", "c"), judged, 3))
                .isCloseTo(1.0 / 3, within(EPS));
    }

    @Test
    void mrrIsTheReciprocalRankOfTheFirstRelevantDocumentWithinK() {
        Map<String, Integer> judged = Map.of("a", 1);

        assertThat(Metrics.mrr(List.of("x", "y", "a"), judged, 10)).isCloseTo(1.0 / 3, within(EPS));
        assertThat(Metrics.mrr(List.of("x", "y", "a"), judged, 2)).isZero();
    }

    @Test
    void evaluateAveragesOverJudgedQueriesOnlyAndScoresMissingRunsZero() {
        Qrels qrels = new Qrels(Map.of("q1", Map.of("a", 1), "q2", Map.of("b", 1)));
        Map<String, List<String>> run = Map.of("q1", List.of("a"), "q-unjudged", List.of("b"));

        Metrics.Summary s = Metrics.evaluate(run, qrels);

        assertThat(s.queries()).isEqualTo(2);
        assertThat(s.ndcg10()).isCloseTo(0.5, within(EPS));
        assertThat(s.recall100()).isCloseTo(0.5, within(EPS));
        assertThat(s.mrr10()).isCloseTo(0.5, within(EPS));
    }

    @Test
    void documentScoreIsTheMaxOverItsChunks() {
        List<ScoredDoc> docs =
                Metrics.maxPerDocument(
                        List.of(
                                new ScoredDoc("d2", 3),
                                new ScoredDoc("d1", 2),
                                new ScoredDoc("d2", 1),
                                new ScoredDoc("d3", 3)));

        assertThat(docs)
                .containsExactly(
                        new ScoredDoc("d2", 3), new ScoredDoc("d3", 3), new ScoredDoc("d1", 2));
    }

    @Test
    void readsQrelsWithAHeaderLine(@TempDir Path dir) throws Exception {
        Path tsv = dir.resolve("train.tsv");
        Files.writeString(tsv, "query-id\tcorpus-id\tscore\n1\td1\t1\n1\td2\t0\n2\td3\t2\n");

        Qrels qrels = Beir.qrels(tsv);

        assertThat(qrels.queryIds()).containsExactly("1", "2");
        assertThat(qrels.of("1")).containsExactly(Map.entry("d1", 1), Map.entry("d2", 0));
        assertThat(qrels.of("2")).containsEntry("d3", 2);
    }

    @Test
    void rejectsAQrelsLineWithoutThreeColumns(@TempDir Path dir) throws Exception {
        Path tsv = dir.resolve("bad.tsv");
        Files.writeString(tsv, "query-id\tcorpus-id\tscore\n1\td1\n");

        assertThatThrownBy(() -> Beir.qrels(tsv))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2");
    }

    @Test
    void readsQueries(@TempDir Path dir) throws Exception {
        Path q = dir.resolve("queries.jsonl");
        Files.writeString(
                q,
                "{\"_id\": \"7\", \"text\": \"why is the sky blue\"}\n\n{\"_id\": 8, \"text\": \"x\"}\n");

        assertThat(Beir.queries(q))
                .containsExactly(Map.entry("7", "why is the sky blue"), Map.entry("8", "x"));
    }

    @Test
    void writesTrecRunLines() {
        Map<String, List<ScoredDoc>> run = new LinkedHashMap<>();
        run.put("q1", List.of(new ScoredDoc("d1", 12.5), new ScoredDoc("d2", 3)));
        run.put("q2", List.of(new ScoredDoc("d9", 0.25)));
        StringWriter out = new StringWriter();

        RunFile.write(run, "bm25", out);

        assertThat(out.toString())
                .isEqualTo(
                        "q1 Q0 d1 1 12.500000 bm25\n"
                                + "q1 Q0 d2 2 3.000000 bm25\n"
                                + "q2 Q0 d9 1 0.250000 bm25\n");
    }

    @Test
    void runFileRejectsIdsWithWhitespace() {
        assertThatThrownBy(() -> RunFile.write(Map.of("q 1", List.of()), "tag", new StringWriter()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("illegal query id: 'q 1'");
    }

    @Test
    void aSummaryRestrictedToSomeQueriesAveragesOnlyThose() {
        Map<String, Map<String, Integer>> judged = new LinkedHashMap<>();
        judged.put("q1", Map.of("a", 1));
        judged.put("q2", Map.of("b", 1));
        judged.put("q3", Map.of("c", 1));
        Metrics.Summary all =
                Metrics.evaluate(
                        Map.of(
                                "q1", List.of("a"), // nDCG 1
                                "q2", List.of("x", "b"), // 1 / log2(3)
                                "q3", List.of("x")), // 0
                        new Qrels(judged));

        Metrics.Summary part = all.restrictedTo(java.util.Set.of("q2", "q3", "not judged"));

        assertThat(part.queries()).isEqualTo(2);
        assertThat(part.ndcg10()).isCloseTo((1 / log2(3)) / 2, within(EPS));
        assertThat(part.mrr10()).isCloseTo(0.25, within(EPS));
        assertThat(all.restrictedTo(java.util.Set.of()).queries()).isZero();
        assertThat(all.restrictedTo(java.util.Set.of()).ndcg10()).isZero();
    }
}
