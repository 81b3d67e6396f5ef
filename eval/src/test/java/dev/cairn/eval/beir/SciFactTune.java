package dev.cairn.eval.beir;

import dev.cairn.retrieval.lexical.Analysis;
import dev.cairn.retrieval.lexical.FieldWeights;
import dev.cairn.retrieval.lexical.LexicalConfig;
import java.nio.file.Path;
import java.util.List;

/**
 * Grid search of BM25 settings on SciFact train (run by hand; prints one line per setting). Used to
 * choose {@link LexicalConfig#DEFAULTS}; never run by the build.
 */
final class SciFactTune {

    private SciFactTune() {}

    public static void main(String[] args) {
        Path dir = SciFact.dir().orElseThrow();
        if (args.length > 0 && args[0].equals("title")) {
            for (double t : new double[] {0.1, 0.2, 0.5}) {
                print(dir, LexicalConfig.DEFAULTS.withWeights(new FieldWeights(t, 0, 0, 1)));
            }
            print(dir, LexicalConfig.DEFAULTS.withAnalysis(Analysis.STANDARD));
            return;
        }
        List<FieldWeights> weights =
                List.of(
                        FieldWeights.DEFAULTS,
                        new FieldWeights(1, 0, 1, 0),
                        new FieldWeights(0.5, 0, 1, 0),
                        new FieldWeights(0.3, 0, 0, 1));
        for (FieldWeights w : weights) {
            print(dir, LexicalConfig.DEFAULTS.withWeights(w));
        }
        for (double k1 : new double[] {0.6, 0.9, 1.2, 1.5}) {
            for (double b : new double[] {0.3, 0.4, 0.5, 0.75}) {
                print(dir, LexicalConfig.DEFAULTS.withBm25(k1, b));
            }
        }
    }

    private static void print(Path dir, LexicalConfig config) {
        Metrics.Summary s = SciFact.run(dir, config, SciFact::oneChunk);
        System.out.printf(
                "k1=%.2f b=%.2f %s %s nDCG@10=%.4f R@100=%.4f MRR@10=%.4f%n",
                config.k1(),
                config.b(),
                config.analysis(),
                config.weights(),
                s.ndcg10(),
                s.recall100(),
                s.mrr10());
    }
}
