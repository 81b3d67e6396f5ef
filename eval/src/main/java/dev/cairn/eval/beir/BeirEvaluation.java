package dev.cairn.eval.beir;

import dev.cairn.retrieval.FusionStrategy;
import dev.cairn.retrieval.Grounding;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.RetrieveRequest;
import dev.cairn.retrieval.RetrieveResult;
import dev.cairn.retrieval.RetrievedHit;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs BEIR queries through a {@link KnowledgeBase} in one mode and scores the document ranking (a
 * document's score is the maximum over its chunks) with {@link Metrics}. Also measures how well the
 * grounding score predicts that the top hit is relevant (AUROC). Not thread-safe.
 */
public final class BeirEvaluation {

    /** Chunks fetched per query: enough distinct documents for Recall@100. */
    public static final int DEPTH = 200;

    private BeirEvaluation() {}

    /**
     * Evaluates one mode.
     *
     * @param weightsOverride weights to use instead of the mode's (e.g. tuned hybrid weights)
     */
    public static ModeResult run(
            KnowledgeBase kb,
            String namespace,
            Map<String, String> queries,
            Qrels qrels,
            EvalMode mode,
            SignalWeights weightsOverride,
            FusionStrategy fusion) {
        Map<String, List<ScoredDoc>> run = new LinkedHashMap<>();
        List<Double> latencies = new ArrayList<>();
        List<GroundingRow> grounding = new ArrayList<>();
        for (String qid : qrels.queryIds()) {
            String text = queries.get(qid);
            if (text == null) {
                continue;
            }
            RetrieveRequest request =
                    RetrieveRequest.of(text)
                            .withTopK(DEPTH)
                            .withCandidates(DEPTH)
                            .withWeights(weightsOverride)
                            .withFusion(fusion);
            long start = System.nanoTime();
            RetrieveResult result = kb.retrieve(namespace, request);
            latencies.add((System.nanoTime() - start) / 1e6);
            List<ScoredDoc> chunks = new ArrayList<>();
            for (RetrievedHit hit : result.hits()) {
                chunks.add(new ScoredDoc(hit.documentId(), runScore(mode, hit)));
            }
            List<ScoredDoc> docs = Metrics.maxPerDocument(chunks);
            run.put(qid, docs);
            Grounding.Features features = Grounding.features(text, result.hits());
            if (features != null) {
                RetrievedHit top = result.hits().getFirst();
                boolean relevant = qrels.of(qid).getOrDefault(top.documentId(), 0) > 0;
                grounding.add(new GroundingRow(qid, result.grounding(), relevant, features));
            }
        }
        Map<String, List<String>> ids = new LinkedHashMap<>();
        run.forEach((q, docs) -> ids.put(q, docs.stream().map(ScoredDoc::id).toList()));
        Metrics.Summary summary = Metrics.evaluate(ids, qrels);
        double[] sorted = latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return new ModeResult(
                mode,
                summary,
                percentile(sorted, 50),
                percentile(sorted, 95),
                auroc(
                        grounding.stream()
                                .map(r -> new double[] {r.grounding(), r.relevant() ? 1 : 0})
                                .toList()),
                run,
                grounding);
    }

    /**
     * The score a run file carries: a single-signal mode's own score (BM25, cosine), which says
     * more than its reciprocal rank and lets fusions be replayed from the run files; a fused mode's
     * fused score.
     */
    private static double runScore(EvalMode mode, RetrievedHit hit) {
        Signal only = null;
        for (Signal s : Signal.values()) {
            if (mode.weights().weight(s) > 0) {
                if (only != null) {
                    return hit.score();
                }
                only = s;
            }
        }
        return only == null ? hit.score() : hit.scores().getOrDefault(only, hit.score());
    }

    /** The nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /**
     * Area under the ROC curve of score (column 0) against a 0/1 label (column 1): the chance that
     * a random positive scores above a random negative, ties counting half (Mann-Whitney).
     */
    static double auroc(List<double[]> rows) {
        double[][] sorted = rows.toArray(double[][]::new);
        Arrays.sort(sorted, (a, b) -> Double.compare(a[0], b[0]));
        long positives = rows.stream().filter(r -> r[1] > 0).count();
        long negatives = rows.size() - positives;
        if (positives == 0 || negatives == 0) {
            return Double.NaN;
        }
        double rankSum = 0;
        int i = 0;
        while (i < sorted.length) {
            int j = i;
            while (j + 1 < sorted.length && sorted[j + 1][0] == sorted[i][0]) {
                j++;
            }
            double averageRank = (i + j) / 2.0 + 1;
            for (int t = i; t <= j; t++) {
                if (sorted[t][1] > 0) {
                    rankSum += averageRank;
                }
            }
            i = j + 1;
        }
        return (rankSum - positives * (positives + 1) / 2.0) / (positives * (double) negatives);
    }

    /**
     * One mode's result.
     *
     * @param groundingRows per query with hits: its grounding score, whether the top hit is
     *     relevant and the features the score was computed from
     */
    public record ModeResult(
            EvalMode mode,
            Metrics.Summary summary,
            double p50Ms,
            double p95Ms,
            double groundingAuroc,
            Map<String, List<ScoredDoc>> run,
            List<GroundingRow> groundingRows) {}

    /**
     * One query's grounding: the score, whether its top hit is relevant, and the features.
     *
     * @param queryId the query
     * @param grounding the grounding score
     * @param relevant whether the top hit's document is judged relevant
     * @param features what the score was computed from
     */
    public record GroundingRow(
            String queryId, double grounding, boolean relevant, Grounding.Features features) {}
}
