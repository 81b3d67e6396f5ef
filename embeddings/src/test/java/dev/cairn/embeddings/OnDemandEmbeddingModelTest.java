package dev.cairn.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.embeddings.bert.TestModels;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The encoder behind {@link EmbeddingModels#onDemand} loads on the first pass or token count and
 * never before: its id, a token counter held by a component and closing it cost no load.
 */
class OnDemandEmbeddingModelTest {

    /** Counts the loads; each hands out a counting view of the real shared model. */
    static final class Loads {
        final AtomicInteger loads = new AtomicInteger();
        final List<CountingEmbeddingModel> loaded = new CopyOnWriteArrayList<>();
        final String id;

        Loads(String id) {
            this.id = id;
        }

        EmbeddingModel load() {
            loads.incrementAndGet();
            CountingEmbeddingModel model = new CountingEmbeddingModel(TestModels.bge(), id);
            loaded.add(model);
            return model;
        }

        int closes() {
            return loaded.stream().mapToInt(CountingEmbeddingModel::closes).sum();
        }
    }

    @Test
    void idAndTokenCounterAndCloseLoadNothing() {
        Loads loads = new Loads("bge-small-en-v1.5");
        EmbeddingModel model = EmbeddingModels.onDemand("bge-small-en-v1.5", loads::load);
        TokenCounter counter = TokenCounter.caching(model.tokenCounter(), 16);

        assertThat(model.id()).isEqualTo("bge-small-en-v1.5");
        model.close();

        assertThat(loads.loads).hasValue(0);
        assertThat(loads.closes()).isZero();
        assertThatThrownBy(() -> counter.count("after close"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("model bge-small-en-v1.5 is closed");
        assertThat(loads.loads).hasValue(0);
    }

    @Test
    void theFirstCountOrPassLoadsOnceAndAnswersAsTheModel() {
        Loads loads = new Loads("bge-small-en-v1.5");
        try (EmbeddingModel model = EmbeddingModels.onDemand("bge-small-en-v1.5", loads::load)) {
            assertThat(model.tokenCounter().count("the boiler was serviced in March"))
                    .isEqualTo(
                            TestModels.bge()
                                    .tokenCounter()
                                    .count("the boiler was serviced in March"));
            assertThat(loads.loads).hasValue(1);

            float[] vector = model.embedQuery("when was the boiler serviced?");
            assertThat(vector)
                    .containsExactly(TestModels.bge().embedQuery("when was the boiler serviced?"));
            assertThat(model.dimensions()).isEqualTo(384);
            assertThat(loads.loads).hasValue(1);
        }
        assertThat(loads.closes()).isEqualTo(1);
    }

    @Test
    void concurrentFirstUsesLoadOnce() throws Exception {
        Loads loads = new Loads("bge-small-en-v1.5");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (EmbeddingModel model = EmbeddingModels.onDemand("bge-small-en-v1.5", loads::load)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> counts = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                counts.add(
                        pool.submit(
                                () -> {
                                    start.await();
                                    return model.tokenCounter().count("gutters cleared");
                                }));
            }
            start.countDown();
            for (Future<Integer> count : counts) {
                assertThat(count.get()).isPositive();
            }
        } finally {
            pool.shutdown();
        }
        assertThat(loads.loads).hasValue(1);
        assertThat(loads.closes()).isEqualTo(1);
    }

    @Test
    void aModelOfAnotherIdIsClosedAndRefused() {
        Loads loads = new Loads("all-MiniLM-L6-v2");
        try (EmbeddingModel model = EmbeddingModels.onDemand("bge-small-en-v1.5", loads::load)) {
            assertThatThrownBy(() -> model.embedQuery("anything"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("the model loaded is all-MiniLM-L6-v2, expected bge-small-en-v1.5");
            assertThat(loads.closes()).isEqualTo(1);
        }
    }

    @Test
    void theDefaultModelsIdIsKnownWithoutLoadingIt() {
        assertThat(EmbeddingModels.defaultModelId()).isEqualTo(TestModels.bge().id());
    }
}
