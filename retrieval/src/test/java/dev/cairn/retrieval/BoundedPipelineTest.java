package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BoundedPipelineTest {

    @Test
    void itemsReachTheSinkInSourceOrderThroughStagesOfUnevenSpeed() {
        long seed = 19L;
        Random random = new Random(seed);
        int[] pauses = random.ints(300, 0, 3).toArray();
        List<Integer> sunk = new ArrayList<>();
        BoundedPipeline.from("order", IntStream.range(0, 300).iterator(), 2)
                .then("slow", i -> pause(pauses[i], i))
                .then("label", i -> "item-" + i)
                .drain(s -> sunk.add(Integer.parseInt(s.substring(5))));
        assertThat(sunk)
                .as("seed %d", seed)
                .containsExactlyElementsOf(IntStream.range(0, 300).boxed().toList());
    }

    @Test
    void aBlockedSinkHoldsTheSourceBackToWhatTheQueuesHold() throws InterruptedException {
        AtomicInteger produced = new AtomicInteger();
        Iterator<Integer> endless =
                new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return produced.get() < 10_000;
                    }

                    @Override
                    public Integer next() {
                        return produced.getAndIncrement();
                    }
                };
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger sunk = new AtomicInteger();
        Thread runner =
                Thread.ofPlatform()
                        .start(
                                () ->
                                        BoundedPipeline.from("pressure", endless, 2)
                                                .then("stage", i -> i)
                                                .drain(
                                                        i -> {
                                                            await(release);
                                                            sunk.incrementAndGet();
                                                        }));
        Thread.sleep(500);
        // two queues of 2, one item in the stage, one in the sink, one the source waits to put
        assertThat(produced.get()).isBetween(1, 7);
        release.countDown();
        runner.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(sunk.get()).isEqualTo(10_000);
    }

    @Test
    void aFailingStageFailsTheDrainAndNoLaterItemIsSunk() {
        List<Integer> sunk = new ArrayList<>();
        AtomicInteger produced = new AtomicInteger();
        Iterator<Integer> source =
                IntStream.range(0, 1_000_000).peek(i -> produced.incrementAndGet()).iterator();
        assertThatThrownBy(
                        () ->
                                BoundedPipeline.from("failing", source, 2)
                                        .then(
                                                "embed",
                                                i -> {
                                                    if (i == 50) {
                                                        throw new IllegalStateException(
                                                                "encoder failed on item 50");
                                                    }
                                                    return i;
                                                })
                                        .drain(sunk::add))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("encoder failed on item 50");
        assertThat(sunk).doesNotContain(50).allSatisfy(i -> assertThat(i).isLessThan(50));
        assertThat(produced.get()).as("the source stopped too").isLessThan(100);
        assertThat(pipelineThreads("failing")).as("every stage thread ended").isEmpty();
    }

    @Test
    void aFailingSinkStopsEveryStage() {
        AtomicInteger produced = new AtomicInteger();
        Iterator<Integer> source =
                IntStream.range(0, 1_000_000).peek(i -> produced.incrementAndGet()).iterator();
        assertThatThrownBy(
                        () ->
                                BoundedPipeline.from("sinkfail", source, 2)
                                        .then("stage", i -> i)
                                        .drain(
                                                i -> {
                                                    if (i == 10) {
                                                        throw new IllegalArgumentException(
                                                                "store refused item 10");
                                                    }
                                                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("store refused item 10");
        assertThat(produced.get()).isLessThan(100);
        assertThat(pipelineThreads("sinkfail")).isEmpty();
    }

    @Test
    void aCapacityBelowOneIsRefused() {
        assertThatThrownBy(() -> BoundedPipeline.from("x", List.of(1).iterator(), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("illegal capacity: 0, must be >= 1");
    }

    private static List<String> pipelineThreads(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(n -> n.startsWith("cairn-" + name + "-"))
                .toList();
    }

    private static int pause(int millis, int value) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return value;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
