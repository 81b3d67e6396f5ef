package dev.cairn.eval.beir;

import dev.cairn.retrieval.Grounding;
import dev.cairn.retrieval.feedback.LogisticFit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Fits the grounding model's coefficients from the rows {@code cairn eval beir} writes to {@code
 * grounding-<mode>.tsv}: logistic regression (Newton's method, a small ridge on the weights) of
 * "the top hit is relevant" on {@link Grounding.Features}, on the queries of one half of a split,
 * and the AUROC of the fit on both halves. The split is by the parity of the smallest relevant
 * document id of each query (numeric ids; SciFact's), the same split as the judge's SciFact claims.
 * Not thread-safe.
 */
public final class GroundingFit {

    /**
     * Ridge on the weights (not the intercept): keeps Newton's steps finite on collinear features.
     */
    static final double RIDGE = 1e-3;

    /** One query's row: its features and whether its top hit is relevant. */
    record Row(String queryId, double[] features, boolean relevant) {}

    private GroundingFit() {}

    /** Reads a {@code grounding-<mode>.tsv}: query, grounding, relevant, then the features. */
    static List<Row> read(Path tsv) throws IOException {
        List<Row> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(tsv);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            double[] x = new double[f.length - 3];
            for (int k = 0; k < x.length; k++) {
                x[k] = Double.parseDouble(f[k + 3]);
            }
            rows.add(new Row(f[0], x, f[2].equals("1")));
        }
        return rows;
    }

    /** Whether a query belongs to the tune half: its smallest relevant document id is even. */
    static boolean tuneHalf(Qrels qrels, String queryId) {
        long smallest = Long.MAX_VALUE;
        for (Map.Entry<String, Integer> e : qrels.of(queryId).entrySet()) {
            if (e.getValue() > 0) {
                smallest = Math.min(smallest, Long.parseLong(e.getKey()));
            }
        }
        return smallest % 2 == 0;
    }

    /** Intercept then one weight per feature, maximising the ridge-penalised likelihood. */
    static double[] fit(List<Row> rows) {
        int d = rows.getFirst().features().length + 1;
        double[][] x = new double[rows.size()][];
        boolean[] relevant = new boolean[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            x[i] = withBias(rows.get(i).features());
            relevant[i] = rows.get(i).relevant();
        }
        double[] ridge = new double[d];
        java.util.Arrays.fill(ridge, 1, d, RIDGE); // not on the intercept
        return LogisticFit.fit(x, relevant, ridge, new double[d]);
    }

    /** AUROC of the linear score {@code w} on the rows. */
    static double auroc(double[] w, List<Row> rows) {
        return BeirEvaluation.auroc(
                rows.stream()
                        .map(
                                r ->
                                        new double[] {
                                            dot(w, withBias(r.features())), r.relevant() ? 1 : 0
                                        })
                        .toList());
    }

    /**
     * Fits on the tune half and reports both halves: {@code GroundingFit <grounding tsv> <qrels
     * tsv>}.
     */
    public static void main(String[] args) throws IOException {
        List<Row> rows = read(Path.of(args[0]));
        Qrels qrels = Beir.qrels(Path.of(args[1]));
        List<Row> tune = rows.stream().filter(r -> tuneHalf(qrels, r.queryId())).toList();
        List<Row> report = rows.stream().filter(r -> !tuneHalf(qrels, r.queryId())).toList();
        double[] w = fit(tune);
        StringBuilder out =
                new StringBuilder("intercept ")
                        .append(String.format(java.util.Locale.ROOT, "%.3f", w[0]));
        for (int k = 0; k < Grounding.Features.NAMES.size(); k++) {
            out.append(", ")
                    .append(Grounding.Features.NAMES.get(k))
                    .append(' ')
                    .append(String.format(java.util.Locale.ROOT, "%.3f", w[k + 1]));
        }
        System.out.println(out);
        System.out.printf(
                java.util.Locale.ROOT,
                "AUROC tune half (%d queries) %.4f, report half (%d queries) %.4f%n",
                tune.size(),
                auroc(w, tune),
                report.size(),
                auroc(w, report));
    }

    private static double[] withBias(double[] features) {
        double[] x = new double[features.length + 1];
        x[0] = 1;
        System.arraycopy(features, 0, x, 1, features.length);
        return x;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
