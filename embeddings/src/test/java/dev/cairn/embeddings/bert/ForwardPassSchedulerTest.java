package dev.cairn.embeddings.bert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The scheduler in front of the real encoder: queries and short document jobs overtake documents,
 * other document jobs take turns.
 */
class ForwardPassSchedulerTest {

    private static List<String> passages(String topic, int count, int sentences) {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            StringBuilder text = new StringBuilder();
            for (int sentence = 0; sentence < sentences; sentence++) {
                text.append("Step ")
                        .append(sentence)
                        .append(" of the ")
                        .append(topic)
                        .append(" procedure number ")
                        .append(i)
                        .append(" checks the replica lag, drains the queue and restarts the pod. ");
            }
            texts.add(text.toString());
        }
        return texts;
    }

    private static void awaitUntil(java.util.function.BooleanSupplier condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(condition.getAsBoolean()).as("condition reached within 60 s").isTrue();
    }

    /**
     * How a second call fared that was made while the first pass of {@code documents} ran: the
     * order the two finished in ("documents", "second"), its vector, and how many passes overtook.
     */
    private record Overtaking(List<String> finished, float[] vector, long overtakes) {}

    private static Overtaking askWhileAPassRuns(
            BertEncoder bge, List<String> documents, Callable<float[]> second) throws Exception {
        ForwardPassScheduler scheduler = bge.passes();
        List<String> finished = Collections.synchronizedList(new ArrayList<>());
        long overtakesBefore = scheduler.overtakes();
        long passesBefore = scheduler.passes();
        float[] vector;
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            Future<List<float[]>> indexing =
                    pool.submit(
                            () -> {
                                List<float[]> rows = bge.embedDocuments(documents);
                                finished.add("documents");
                                return rows;
                            });
            awaitUntil(() -> scheduler.passes() > passesBefore); // the first pass is running
            Future<float[]> asked =
                    pool.submit(
                            () -> {
                                float[] v = second.call();
                                finished.add("second");
                                return v;
                            });
            vector = asked.get();
            assertThat(indexing.get()).hasSize(documents.size()).doesNotContainNull();
        }
        return new Overtaking(
                List.copyOf(finished), vector, scheduler.overtakes() - overtakesBefore);
    }

    @Test
    void aQueryOvertakesALongDocumentJobAndGetsTheVectorItWouldGetAlone() throws Exception {
        BertEncoder bge = TestModels.bge();
        String query = "how do I recover a lagging replica?";
        float[] alone = bge.embedQuery(query);
        Overtaking run =
                askWhileAPassRuns(bge, passages("failover", 40, 6), () -> bge.embedQuery(query));
        assertThat(TestModels.cosine(run.vector(), alone)).isGreaterThan(0.999);
        assertThat(run.finished()).containsExactly("second", "documents");
        assertThat(run.overtakes())
                .as("the query ran between two layers of a document pass")
                .isEqualTo(1);
    }

    @Test
    void aOneTextDocumentJobOvertakesARunningDocumentPassBetweenItsLayers() throws Exception {
        BertEncoder bge = TestModels.bge();
        String memory = "The staging database is restored from the nightly snapshot.";
        assumeTrue(
                bge.documentsRunAsShortPass(List.of(memory)),
                "skipped: a one-text document pass here runs neither on int8 column slices"
                        + " (VNNI) nor on fp16 weights (AVX2/FMA/F16C), the routes queries nest on;"
                        + " it waits for the running pass (the other overtaking tests)");
        float[] alone = bge.embedDocuments(List.of(memory)).getFirst();
        // one slice: without overtaking, the memory would wait for the whole of it
        Overtaking run =
                askWhileAPassRuns(
                        bge,
                        passages("failover", ForwardPassScheduler.DOCUMENT_SLICE, 6),
                        () -> bge.embedDocuments(List.of(memory)).getFirst());
        assertThat(run.vector()).as("the same vector as alone").isEqualTo(alone);
        assertThat(run.finished()).containsExactly("second", "documents");
        assertThat(run.overtakes())
                .as("the memory ran between two layers of the slice's pass")
                .isEqualTo(1);
    }

    @Test
    void aSmallDocumentJobTakesItsTurnBeforeALargeOneFinishes() throws Exception {
        BertEncoder bge = TestModels.bge();
        ForwardPassScheduler scheduler = bge.passes();
        List<String> large = passages("backup", 2 * ForwardPassScheduler.DOCUMENT_SLICE, 1);
        // too long for a short pass, so it takes turns rather than overtaking
        List<String> small = passages("restore", 4, 6);
        assertThat(bge.documentsRunAsShortPass(small)).isFalse();
        float[] smallAlone = bge.embedDocuments(small).getFirst();
        List<String> finished = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch release = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
            // hold the inference thread so both jobs are queued before either runs
            Future<?> blocker = TestModels.holdInferenceThread(pool, release);
            long requestsBefore = scheduler.requests();
            Future<List<float[]>> bulk =
                    pool.submit(
                            () -> {
                                List<float[]> rows = bge.embedDocuments(large);
                                finished.add("large");
                                return rows;
                            });
            awaitUntil(() -> scheduler.requests() > requestsBefore);
            Thread.sleep(50); // the large job is queued first
            Future<float[]> single =
                    pool.submit(
                            () -> {
                                float[] v = bge.embedDocuments(small).getFirst();
                                finished.add("small");
                                return v;
                            });
            awaitUntil(() -> scheduler.requests() > requestsBefore + 1);
            Thread.sleep(50);
            release.countDown();
            blocker.get();
            assertThat(TestModels.cosine(single.get(), smallAlone)).isGreaterThan(0.999);
            List<float[]> rows = bulk.get();
            assertThat(rows).hasSize(large.size()).doesNotContainNull();
            // rows come back in input order even though slices ran in length order
            float[] third = bge.embedDocuments(List.of(large.get(3))).getFirst();
            assertThat(TestModels.cosine(rows.get(3), third)).isGreaterThan(0.999);
        }
        assertThat(finished).containsExactly("small", "large");
    }

    @Test
    void closingTheModelDuringADocumentJobFailsWhatIsLeftAndFreesNothingInUse() throws Exception {
        BertEncoder own = BertEncoder.load(BertSpec.BGE_SMALL_EN_V15, EncoderOptions.defaults());
        ForwardPassScheduler scheduler = own.passes();
        List<String> documents = passages("restore", 6 * ForwardPassScheduler.DOCUMENT_SLICE, 4);
        long passesBefore = scheduler.passes();
        try (ExecutorService pool = Executors.newFixedThreadPool(1)) {
            Future<List<float[]>> indexing = pool.submit(() -> own.embedDocuments(documents));
            awaitUntil(() -> scheduler.passes() > passesBefore); // a slice is running
            own.close(); // waits for that slice, then frees the weights
            assertThatThrownBy(indexing::get)
                    .hasCauseInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
        }
        assertThatThrownBy(() -> own.embedQuery("anything"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        // the shared model on the same inference thread still works
        assertThat(TestModels.bge().embedQuery("still here")).hasSize(384);
    }
}
