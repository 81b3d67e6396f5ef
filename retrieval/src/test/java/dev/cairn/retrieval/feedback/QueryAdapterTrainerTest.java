package dev.cairn.retrieval.feedback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The trainer on a synthetic ranking problem: queries are a fixed linear distortion of their
 * relevant document plus noise, so the identity ranks the relevant document poorly and a learned
 * map can undo the distortion for queries it never saw.
 */
class QueryAdapterTrainerTest {

    static final int D = 24;
    static final long SEED = 7;

    final Random random = new Random(SEED);
    final List<float[]> documents = new ArrayList<>();
    final double[][] distortion = new double[D][D];

    QueryAdapterTrainerTest() {
        for (int i = 0; i < 300; i++) {
            documents.add(unit(gaussian(D)));
        }
        for (int i = 0; i < D; i++) {
            for (int j = 0; j < D; j++) {
                distortion[i][j] = (i == j ? 0.3 : 0) + random.nextGaussian() * 0.35;
            }
        }
    }

    @Test
    void trainedAdapterRanksTheRelevantDocumentHigherOnQueriesItNeverSaw() {
        List<QueryAdapterTrainer.Example> train = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            int relevant = i % documents.size();
            float[] q = query(relevant);
            train.add(
                    new QueryAdapterTrainer.Example(
                            q,
                            Map.of("d" + relevant, documents.get(relevant)),
                            negatives(q, relevant)));
        }
        // a weak pull to the identity: the distortion here is large and the same for every query,
        // unlike real queries (the default's strong pull is for those; docs/retrieval.md)
        QueryAdapter adapter =
                new QueryAdapterTrainer(
                                QueryAdapterTrainer.Config.DEFAULTS.withRegularization(0.01))
                        .train(train, D);

        double before = 0;
        double after = 0;
        int tests = 100;
        for (int i = 0; i < tests; i++) {
            int relevant = 200 + i; // documents no training query was about
            float[] q = query(relevant);
            before += 1.0 / rank(q, relevant);
            after += 1.0 / rank(adapter.apply(q), relevant);
        }
        before /= tests;
        after /= tests;

        assertThat(after)
                .as("MRR of unseen queries with the adapter (seed %d), before %.3f", SEED, before)
                .isGreaterThan(before + 0.1);
    }

    @Test
    void trainingIsReproducibleWithTheSameSeed() {
        List<QueryAdapterTrainer.Example> train = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            float[] q = query(i);
            train.add(
                    new QueryAdapterTrainer.Example(
                            q, Map.of("d" + i, documents.get(i)), negatives(q, i)));
        }
        QueryAdapterTrainer trainer =
                new QueryAdapterTrainer(QueryAdapterTrainer.Config.DEFAULTS.withEpochs(3));

        assertThat(trainer.train(train, D).matrix()).isEqualTo(trainer.train(train, D).matrix());
    }

    @Test
    void adapterSurvivesItsStorageEncodingAndLeavesItsInputAlone() {
        float[] w = new float[D * D];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) random.nextGaussian();
        }
        QueryAdapter adapter = QueryAdapter.of(D, w);
        float[] q = unit(gaussian(D));
        float[] copy = q.clone();

        float[] mapped = QueryAdapter.fromBytes(D, adapter.toBytes()).apply(q);

        assertThat(mapped).containsExactly(adapter.apply(q));
        assertThat(q).containsExactly(copy);
        double norm = 0;
        for (float v : mapped) {
            norm += v * v;
        }
        assertThat(norm).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
    }

    @Test
    void badSettingsAreNamed() {
        assertThatThrownBy(() -> QueryAdapterTrainer.Config.DEFAULTS.withLearningRate(0))
                .hasMessage("illegal learningRate: 0.0, must be > 0 and finite");
        assertThatThrownBy(
                        () ->
                                new QueryAdapterTrainer(QueryAdapterTrainer.Config.DEFAULTS)
                                        .train(List.of(), D))
                .hasMessage("no examples to train on");
        assertThatThrownBy(() -> QueryAdapter.of(3, new float[8]))
                .hasMessage("illegal matrix length: 8, must be dimensions^2 = 9");
    }

    /** The distorted, noisy query of a document. */
    float[] query(int relevant) {
        float[] d = documents.get(relevant);
        float[] q = new float[D];
        for (int i = 0; i < D; i++) {
            double sum = 0;
            for (int j = 0; j < D; j++) {
                sum += distortion[i][j] * d[j];
            }
            q[i] = (float) (sum + random.nextGaussian() * 0.05);
        }
        return unit(q);
    }

    /** The 20 documents nearest to q other than the relevant one: hard negatives. */
    Map<String, float[]> negatives(float[] q, int relevant) {
        List<Integer> order = order(q);
        Map<String, float[]> out = new HashMap<>();
        for (int i : order) {
            if (i != relevant && out.size() < 20) {
                out.put("d" + i, documents.get(i));
            }
        }
        return out;
    }

    int rank(float[] q, int relevant) {
        return order(q).indexOf(relevant) + 1;
    }

    List<Integer> order(float[] q) {
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < documents.size(); i++) {
            ids.add(i);
        }
        ids.sort((a, b) -> Double.compare(dot(q, documents.get(b)), dot(q, documents.get(a))));
        return ids;
    }

    static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    float[] gaussian(int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }

    static float[] unit(float[] v) {
        double norm = Math.sqrt(dot(v, v));
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] / norm);
        }
        return out;
    }
}
