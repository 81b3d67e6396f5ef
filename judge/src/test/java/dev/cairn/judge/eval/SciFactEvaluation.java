package dev.cairn.judge.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.judge.ClaimVerdict;
import dev.cairn.judge.Evidence;
import dev.cairn.judge.Judge;
import dev.cairn.judge.JudgeConfig;
import dev.cairn.judge.JudgeInput;
import dev.cairn.judge.Judgement;
import dev.cairn.judge.PolicyRegistry;
import dev.cairn.judge.SecretDetector;
import dev.cairn.judge.SimilarityFunction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Evaluates the judge on SciFact's {@code claims_train.jsonl} + {@code corpus.jsonl} with any
 * {@link SimilarityFunction}.
 *
 * <p>Each claim becomes an answer {@code "<claim> [1-n]"} citing every sentence of the abstracts in
 * its {@code cited_doc_ids} (one evidence item per sentence, id {@code doc#index}); all cited
 * abstracts are used for every claim, not only the ones with rationales, so that the evidence does
 * not leak the label. Prediction: CONTRADICT when any claim of the answer is contradicted, else
 * SUPPORT when any is supported, else NOT_ENOUGH_INFO. The gold label is the label of the claim's
 * rationales (SciFact claims never mix labels), NOT_ENOUGH_INFO when it has none.
 *
 * <p>Calibration: sweeps the support threshold and the contradiction context threshold on this
 * training file, prints a table, picks the pair with the best macro-F1 and reports accuracy,
 * macro-F1 and the confusion matrix for it; writes everything as JSON. Not thread-safe.
 */
public final class SciFactEvaluation {

    /** The three SciFact labels, in confusion-matrix order. */
    enum Label {
        SUPPORT,
        CONTRADICT,
        NOT_ENOUGH_INFO
    }

    /**
     * One claim with its gold label and evidence.
     *
     * @param firstDoc the smallest of its cited abstract ids, which decides its {@link Part}
     */
    record Example(int id, String claim, Label gold, List<Evidence> evidence, int firstDoc) {}

    /**
     * The two halves of the training claims: by the parity of the smallest cited abstract id, so
     * that the claims SciFact wrote about one abstract (often a claim and its negation) fall in the
     * same half. Thresholds are chosen on {@link #TUNE} and reported on both; {@link #REPORT} is
     * never used to choose anything.
     */
    enum Part {
        /** Smallest cited abstract id even: 411 claims (160 SUPPORT, 93 CONTRADICT, 158 NEI). */
        TUNE,
        /** Smallest cited abstract id odd: 398 claims (172 SUPPORT, 80 CONTRADICT, 146 NEI). */
        REPORT
    }

    /** Result of one configuration. */
    record Result(
            double similarityWeight,
            double supportThreshold,
            double contextThreshold,
            double accuracy,
            double macroF1,
            double[] f1,
            int[][] confusion) {}

    /** Support thresholds swept. */
    static final double[] SUPPORT_THRESHOLDS = {
        0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.60, 0.65, 0.70, 0.75, 0.80
    };

    /** Similarity weights swept (the rest of the support score is content-word overlap). */
    static final double[] SIMILARITY_WEIGHTS = {0.3, 0.5, 0.7};

    /** Context thresholds swept. */
    static final double[] CONTEXT_THRESHOLDS = {0.3, 0.4, 0.5};

    private final List<Example> examples;

    SciFactEvaluation(List<Example> examples) {
        this.examples = List.copyOf(examples);
    }

    /** Loads the two files from {@code dir}. */
    static SciFactEvaluation load(Path dir) {
        ObjectMapper json = new ObjectMapper();
        try {
            List<JsonNode> claims = new ArrayList<>();
            Set<Integer> needed = new HashSet<>();
            for (String line : Files.readAllLines(dir.resolve("claims_train.jsonl"))) {
                if (!line.isBlank()) {
                    JsonNode c = json.readTree(line);
                    claims.add(c);
                    c.get("cited_doc_ids").forEach(d -> needed.add(d.asInt()));
                }
            }
            Map<Integer, List<String>> abstracts = new HashMap<>();
            try (var lines = Files.lines(dir.resolve("corpus.jsonl"))) {
                for (String line : (Iterable<String>) lines::iterator) {
                    JsonNode d = json.readTree(line);
                    if (needed.contains(d.get("doc_id").asInt())) {
                        List<String> sentences = new ArrayList<>();
                        d.get("abstract").forEach(s -> sentences.add(s.asText()));
                        abstracts.put(d.get("doc_id").asInt(), sentences);
                    }
                }
            }
            List<Example> examples = new ArrayList<>();
            for (JsonNode c : claims) {
                Label gold = Label.NOT_ENOUGH_INFO;
                for (JsonNode sets : c.get("evidence")) {
                    for (JsonNode set : sets) {
                        gold = Label.valueOf(set.get("label").asText());
                    }
                }
                Set<Integer> docs = new LinkedHashSet<>();
                c.get("cited_doc_ids").forEach(d -> docs.add(d.asInt()));
                List<Evidence> evidence = new ArrayList<>();
                for (int doc : docs) {
                    List<String> sentences = abstracts.get(doc);
                    for (int i = 0; i < sentences.size(); i++) {
                        evidence.add(Evidence.of(doc + "#" + i, sentences.get(i)));
                    }
                }
                examples.add(
                        new Example(
                                c.get("id").asInt(),
                                c.get("claim").asText(),
                                gold,
                                evidence,
                                docs.stream().mapToInt(Integer::intValue).min().orElse(0)));
            }
            return new SciFactEvaluation(examples);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Every {@code every}-th claim in file order (all when 1): a deterministic subsample that keeps
     * the label mix, for similarities too slow to run on all 809 claims.
     */
    SciFactEvaluation every(int every) {
        List<Example> out = new ArrayList<>();
        for (int i = 0; i < examples.size(); i += every) {
            out.add(examples.get(i));
        }
        return new SciFactEvaluation(out);
    }

    /** The claims of one part of the split. */
    SciFactEvaluation part(Part part) {
        int parity = part == Part.TUNE ? 0 : 1;
        return new SciFactEvaluation(
                examples.stream().filter(e -> Math.floorMod(e.firstDoc(), 2) == parity).toList());
    }

    /**
     * Judges every claim once at the defaults, printing progress to stderr; with a caching
     * similarity this fills the cache before the sweep.
     */
    void warm(SimilarityFunction similarity, Runnable checkpoint) {
        long start = System.nanoTime();
        Judge judge =
                Judge.create(
                        JudgeConfig.defaults(),
                        similarity,
                        PolicyRegistry.builtIn(),
                        SecretDetector.none());
        for (int i = 0; i < examples.size(); i++) {
            predict(judge, examples.get(i));
            if ((i + 1) % 25 == 0 || i + 1 == examples.size()) {
                System.err.printf(
                        Locale.ROOT,
                        "warm-up %s: %d/%d claims, %.0f s%n",
                        similarity.name(),
                        i + 1,
                        examples.size(),
                        (System.nanoTime() - start) / 1e9);
                checkpoint.run();
            }
        }
    }

    int size() {
        return examples.size();
    }

    /** Judges every claim with the given thresholds. */
    Result run(
            SimilarityFunction similarity,
            double similarityWeight,
            double supportThreshold,
            double contextThreshold) {
        return run(
                similarity,
                JudgeConfig.defaults()
                        .withSimilarityWeight(similarityWeight)
                        .withSupportThreshold(supportThreshold)
                        .withContextThreshold(contextThreshold));
    }

    /** Judges every claim with the given configuration. */
    Result run(SimilarityFunction similarity, JudgeConfig config) {
        Judge judge =
                Judge.create(config, similarity, PolicyRegistry.builtIn(), SecretDetector.none());
        int[][] confusion = new int[3][3];
        for (Example ex : examples) {
            Label predicted = predict(judge, ex);
            confusion[ex.gold().ordinal()][predicted.ordinal()]++;
        }
        return score(
                config.similarityWeight(),
                config.supportThreshold(),
                config.contextThreshold(),
                confusion);
    }

    /** Each misjudged claim: gold, predicted, the claim and the judge's reasons. */
    String misses(SimilarityFunction similarity, JudgeConfig config) {
        Judge judge =
                Judge.create(config, similarity, PolicyRegistry.builtIn(), SecretDetector.none());
        StringBuilder out = new StringBuilder();
        for (Example ex : examples) {
            Label predicted = predict(judge, ex);
            if (predicted != ex.gold()) {
                Judgement j = judge.judge(JudgeInput.of("", answer(ex), ex.evidence()));
                out.append(ex.gold()).append(" -> ").append(predicted).append(": ");
                out.append(ex.claim()).append('\n');
                for (ClaimVerdict v : j.claims()) {
                    for (String r : v.reasons()) {
                        if (r.contains("contradicts") || r.contains(" supports")) {
                            out.append("    ").append(r).append('\n');
                        }
                    }
                }
                // the best-aligned sentence, to see what a cue missed
                double[][] sim =
                        similarity.similarities(
                                List.of(ex.claim()),
                                ex.evidence().stream().map(Evidence::text).toList());
                int best = 0;
                for (int k = 1; k < sim[0].length; k++) {
                    if (sim[0][k] > sim[0][best]) {
                        best = k;
                    }
                }
                out.append("    best: ").append(ex.evidence().get(best).text()).append('\n');
            }
        }
        return out.toString();
    }

    private static String answer(Example ex) {
        String claim = ex.claim().strip();
        if (claim.endsWith(".")) {
            claim = claim.substring(0, claim.length() - 1);
        }
        return claim + " [1-" + ex.evidence().size() + "].";
    }

    static Label predict(Judge judge, Example ex) {
        Judgement j = judge.judge(JudgeInput.of("", answer(ex), ex.evidence()));
        if (j.claims().stream().anyMatch(ClaimVerdict::contradicted)) {
            return Label.CONTRADICT;
        }
        if (j.claims().stream().anyMatch(ClaimVerdict::supported)) {
            return Label.SUPPORT;
        }
        return Label.NOT_ENOUGH_INFO;
    }

    static double precision(int[][] confusion, int label) {
        int predicted = 0;
        for (int[] row : confusion) {
            predicted += row[label];
        }
        return predicted == 0 ? 0 : (double) confusion[label][label] / predicted;
    }

    static double recall(int[][] confusion, int label) {
        int gold = 0;
        for (int v : confusion[label]) {
            gold += v;
        }
        return gold == 0 ? 0 : (double) confusion[label][label] / gold;
    }

    static Result score(double weight, double support, double context, int[][] confusion) {
        double[] f1 = new double[3];
        int correct = 0;
        int total = 0;
        for (int c = 0; c < 3; c++) {
            int tp = confusion[c][c];
            int goldC = 0;
            int predC = 0;
            for (int k = 0; k < 3; k++) {
                goldC += confusion[c][k];
                predC += confusion[k][c];
                total += confusion[c][k];
            }
            correct += tp;
            double p = predC == 0 ? 0 : (double) tp / predC;
            double r = goldC == 0 ? 0 : (double) tp / goldC;
            f1[c] = p + r == 0 ? 0 : 2 * p * r / (p + r);
        }
        double macro = (f1[0] + f1[1] + f1[2]) / 3;
        return new Result(weight, support, context, (double) correct / total, macro, f1, confusion);
    }

    /**
     * Sweeps the similarity weight and both thresholds, prints one table per weight, returns the
     * best result (ties: the first found, lower thresholds).
     */
    Result calibrate(SimilarityFunction cached, StringBuilder report, ArrayNode sweepJson) {
        Result best = null;
        for (double w : SIMILARITY_WEIGHTS) {
            List<Result> all = new ArrayList<>();
            for (double ctx : CONTEXT_THRESHOLDS) {
                for (double sup : SUPPORT_THRESHOLDS) {
                    Result r = run(cached, w, sup, ctx);
                    all.add(r);
                    ObjectNode row = sweepJson.addObject();
                    row.put("similarityWeight", w);
                    row.put("supportThreshold", sup);
                    row.put("contextThreshold", ctx);
                    row.put("accuracy", r.accuracy());
                    row.put("macroF1", r.macroF1());
                    if (best == null || r.macroF1() > best.macroF1() + 1e-12) {
                        best = r;
                    }
                }
            }
            report.append(
                    String.format(
                            Locale.ROOT,
                            "%nsimilarity weight %.1f: macro-F1 by support threshold (rows) and"
                                    + " context threshold (columns)%n",
                            w));
            report.append("support ");
            for (double ctx : CONTEXT_THRESHOLDS) {
                report.append(String.format(Locale.ROOT, "  ctx=%.1f", ctx));
            }
            report.append('\n');
            for (double sup : SUPPORT_THRESHOLDS) {
                report.append(String.format(Locale.ROOT, "  %.2f  ", sup));
                for (double ctx : CONTEXT_THRESHOLDS) {
                    for (Result r : all) {
                        if (r.supportThreshold() == sup && r.contextThreshold() == ctx) {
                            report.append(String.format(Locale.ROOT, "  %7.3f", r.macroF1()));
                        }
                    }
                }
                report.append('\n');
            }
        }
        return best;
    }

    static String describe(Result r) {
        StringBuilder s = new StringBuilder();
        s.append(
                String.format(
                        Locale.ROOT,
                        "similarity weight %.1f, support threshold %.2f, context threshold %.1f:"
                                + " accuracy %.3f, macro-F1 %.3f (F1 SUPPORT %.3f, CONTRADICT %.3f,"
                                + " NEI %.3f)%n",
                        r.similarityWeight(),
                        r.supportThreshold(),
                        r.contextThreshold(),
                        r.accuracy(),
                        r.macroF1(),
                        r.f1()[0],
                        r.f1()[1],
                        r.f1()[2]));
        for (Label l : Label.values()) {
            s.append(
                    String.format(
                            Locale.ROOT,
                            "%-16s precision %.3f recall %.3f%n",
                            l,
                            precision(r.confusion(), l.ordinal()),
                            recall(r.confusion(), l.ordinal())));
        }
        s.append("confusion (rows gold, columns predicted):\n");
        s.append(
                String.format(
                        Locale.ROOT, "%-16s %8s %10s %8s%n", "", "SUPPORT", "CONTRADICT", "NEI"));
        for (Label g : Label.values()) {
            int[] row = r.confusion()[g.ordinal()];
            s.append(String.format(Locale.ROOT, "%-16s %8d %10d %8d%n", g, row[0], row[1], row[2]));
        }
        return s.toString();
    }

    /** Runs the calibration and writes {@code scifact-<similarity>.json} under {@code out}. */
    static Result evaluate(
            Path dataDir, SimilarityFunction similarity, Path out, StringBuilder report) {
        return load(dataDir).evaluate(similarity, out, report);
    }

    /**
     * Runs the calibration on these claims; see {@link #evaluate(Path, SimilarityFunction, Path,
     * StringBuilder)}.
     */
    Result evaluate(SimilarityFunction similarity, Path out, StringBuilder report) {
        SciFactEvaluation eval = this;
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        root.put("dataset", "scifact claims_train.jsonl");
        root.put("claims", eval.size());
        root.put("similarity", similarity.name());
        SimilarityFunction cached = new CachingSimilarity(similarity);
        Result atDefaults =
                eval.run(
                        cached,
                        JudgeConfig.DEFAULT_SIMILARITY_WEIGHT,
                        JudgeConfig.DEFAULT_SUPPORT_THRESHOLD,
                        JudgeConfig.DEFAULT_CONTEXT_THRESHOLD);
        report.append("SciFact train, ")
                .append(eval.size())
                .append(" claims, similarity ")
                .append(similarity.name())
                .append('\n');
        report.append("at the defaults: ").append(describe(atDefaults));
        Result best = eval.calibrate(cached, report, root.putArray("sweep"));
        report.append("\nbest on train: ").append(describe(best));
        put(root.putObject("defaults"), atDefaults);
        put(root.putObject("best"), best);
        try {
            Files.createDirectories(out);
            json.writerWithDefaultPrettyPrinter()
                    .writeValue(
                            out.resolve("scifact-" + similarity.name() + ".json").toFile(), root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return best;
    }

    private static void put(ObjectNode node, Result r) {
        node.put("similarityWeight", r.similarityWeight());
        node.put("supportThreshold", r.supportThreshold());
        node.put("contextThreshold", r.contextThreshold());
        node.put("accuracy", r.accuracy());
        node.put("macroF1", r.macroF1());
        ArrayNode cm = node.putArray("confusion");
        for (int[] row : r.confusion()) {
            ArrayNode a = cm.addArray();
            for (int v : row) {
                a.add(v);
            }
        }
    }

    /**
     * Runs the evaluation with lexical similarity: {@code SciFactEvaluation <scifact-claims dir>
     * [out dir]}.
     */
    public static void main(String[] args) {
        Path data = Path.of(args.length > 0 ? args[0] : "/work/shared/datasets/scifact-claims");
        Path out = Path.of(args.length > 1 ? args[1] : "target/eval");
        StringBuilder report = new StringBuilder();
        evaluate(data, SimilarityFunction.lexical(), out, report);
        System.out.print(report);
    }

    /**
     * Memoises a similarity function per (claims, passages) call, so that a sweep embeds every text
     * once. Not thread-safe beyond what {@link ConcurrentHashMap} gives.
     */
    static final class CachingSimilarity implements SimilarityFunction {
        private final SimilarityFunction delegate;
        private final Map<List<List<String>>, double[][]> cache = new ConcurrentHashMap<>();

        CachingSimilarity(SimilarityFunction delegate) {
            this.delegate = delegate;
        }

        @Override
        public String name() {
            return delegate.name();
        }

        @Override
        public double[][] similarities(List<String> claims, List<String> passages) {
            return cache.computeIfAbsent(
                    List.of(List.copyOf(claims), List.copyOf(passages)),
                    k -> delegate.similarities(k.get(0), k.get(1)));
        }
    }
}
