package dev.cairn.store.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NearestVectorsTest {

    private static final Similarity DOT =
            (q, v) -> {
                double dot = 0;
                for (int i = 0; i < q.length; i++) {
                    dot += (double) q[i] * v[i];
                }
                return dot;
            };

    private record Entry(String id, float[] vector) {}

    @Test
    void keepsTheBestKByScoreThenId() {
        List<Entry> entries =
                List.of(
                        new Entry("c", new float[] {1, 0}),
                        new Entry("a", new float[] {0, 1}),
                        new Entry("b", new float[] {1, 0}),
                        new Entry("d", new float[] {0.5f, 0}));

        List<VectorHit> hits =
                NearestVectors.exact(DOT)
                        .nearest(entries, Entry::id, Entry::vector, new float[] {1, 0}, 3);

        assertThat(hits)
                .containsExactly(
                        new VectorHit("b", 1.0), new VectorHit("c", 1.0), new VectorHit("d", 0.5));
    }

    @Test
    void skipsFilteredEntriesAndVectorsOfAnotherLength() {
        List<Entry> entries =
                List.of(
                        new Entry("a", new float[] {1, 0}),
                        new Entry("b", new float[0]),
                        new Entry("c", new float[] {1, 0, 0}),
                        new Entry("d", new float[] {0, 1}));

        List<VectorHit> hits =
                NearestVectors.exact(DOT)
                        .nearest(
                                entries,
                                Entry::id,
                                Entry::vector,
                                e -> !e.id().equals("a"),
                                new float[] {1, 0},
                                10);

        assertThat(hits).extracting(VectorHit::id).containsExactly("d");
    }

    @Test
    void aParallelScanAnswersAsASequentialOne() {
        Random random = new Random(7);
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            float[] v = new float[8];
            for (int d = 0; d < v.length; d++) {
                // coarse values, so many scores tie and the id decides
                v[d] = random.nextInt(3) - 1;
            }
            entries.add(new Entry("e" + i, v));
        }
        Collections.shuffle(entries, random);
        float[] query = {1, 1, 0, 0, 1, 0, 0, 1};

        List<VectorHit> sequential =
                NearestVectors.exact(DOT).nearest(entries, Entry::id, Entry::vector, query, 50);
        List<VectorHit> parallel =
                NearestVectors.exact(DOT)
                        .parallelFrom(100)
                        .nearest(entries, Entry::id, Entry::vector, query, 50);

        List<VectorHit> all = new ArrayList<>();
        for (Entry e : entries) {
            all.add(new VectorHit(e.id(), DOT.score(query, e.vector())));
        }
        all.sort(VectorHit.BEST_FIRST);
        assertThat(sequential).isEqualTo(all.subList(0, 50));
        assertThat(parallel).isEqualTo(sequential);
    }

    @Test
    void bestFirstIsHigherScoreThenSmallerId() {
        Comparator<VectorHit> spelledOut =
                Comparator.comparingDouble(VectorHit::score)
                        .reversed()
                        .thenComparing(VectorHit::id);
        Random random = new Random(3);
        List<VectorHit> hits = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            // few distinct scores and ids, so ties on either or both are common
            double score = random.nextInt(5) - 2 + (random.nextBoolean() ? 0.0 : -0.0);
            hits.add(new VectorHit("id" + random.nextInt(20), score));
        }
        for (VectorHit a : hits) {
            for (VectorHit b : hits) {
                assertThat(Integer.signum(VectorHit.BEST_FIRST.compare(a, b)))
                        .as("%s vs %s", a, b)
                        .isEqualTo(Integer.signum(spelledOut.compare(a, b)));
            }
        }
    }

    @Test
    void topKIsIndependentOfOfferOrderAndSplits() {
        TopK whole = new TopK(2);
        whole.offer("b", 1);
        whole.offer("a", 1);
        whole.offer("c", 2);
        whole.offer("d", 0);
        TopK left = new TopK(2);
        left.offer("d", 0);
        left.offer("a", 1);
        TopK right = new TopK(2);
        right.offer("c", 2);
        right.offer("b", 1);

        assertThat(whole.best()).isEqualTo(left.merge(right).best());
        assertThat(whole.best())
                .containsExactly(new VectorHit("c", 2), new VectorHit("a", 1))
                .isSortedAccordingTo(Comparator.comparing(VectorHit::score).reversed());
    }

    @Test
    void rejectsBadArguments() {
        NearestVectors scan = NearestVectors.exact(DOT);
        List<Entry> none = List.of();
        assertThatThrownBy(() -> scan.nearest(none, Entry::id, Entry::vector, new float[] {1}, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> scan.nearest(none, Entry::id, Entry::vector, new float[0], 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> scan.parallelFrom(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new VectorHit("a", Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new VectorHit("", 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
