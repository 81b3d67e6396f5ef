package dev.cairn.embeddings.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class SpinningHelpersTest {

    private final SpinningHelpers helpers = new SpinningHelpers("test-helper", 3);

    @Test
    void runsThePartsAtOnceAndReturnsTheirResultsInOrder() {
        // each part waits until all three have begun: only parts running at once get past it
        CountDownLatch allStarted = new CountDownLatch(3);
        List<String> results =
                helpers.inParts(
                        3,
                        part -> {
                            allStarted.countDown();
                            await(allStarted);
                            return part + ":" + Thread.currentThread().getName();
                        });

        assertThat(results).hasSize(3);
        assertThat(results.get(0)).isEqualTo("0:" + Thread.currentThread().getName());
        assertThat(results.get(1)).startsWith("1:");
        assertThat(results.get(2)).startsWith("2:");
        assertThat(results.stream().map(r -> r.substring(2)).distinct()).hasSize(3);
    }

    @Test
    void aFailingPartIsThrownOnlyAfterEveryOtherPartHasEnded() {
        AtomicBoolean slowPartEnded = new AtomicBoolean();

        assertThatThrownBy(
                        () ->
                                helpers.inParts(
                                        3,
                                        part -> {
                                            if (part == 0) {
                                                throw new IllegalArgumentException("part 0");
                                            }
                                            if (part == 2) {
                                                sleep(50);
                                                slowPartEnded.set(true);
                                                throw new IllegalStateException("part 2");
                                            }
                                            return part;
                                        }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("part 0")
                .satisfies(
                        e ->
                                assertThat(e.getSuppressed())
                                        .singleElement()
                                        .satisfies(s -> assertThat(s).hasMessage("part 2")));
        assertThat(slowPartEnded).isTrue();

        // the helpers are free again
        assertThat(helpers.inParts(3, part -> part * 10)).containsExactly(0, 10, 20);
    }

    @Test
    void byRowsCoversEveryRowOnceInRangesOfAtLeastTheMinimum() {
        List<int[]> ranges = Collections.synchronizedList(new ArrayList<>());

        helpers.byRows(100, 32, (from, to) -> ranges.add(new int[] {from, to}));

        assertThat(ranges).hasSize(3);
        ranges.sort((a, b) -> Integer.compare(a[0], b[0]));
        int next = 0;
        for (int[] range : ranges) {
            assertThat(range[0]).isEqualTo(next);
            assertThat(range[1] - range[0]).isGreaterThanOrEqualTo(32);
            next = range[1];
        }
        assertThat(next).isEqualTo(100);
    }

    @Test
    void fewRowsStayOnTheCaller() {
        List<String> threads = Collections.synchronizedList(new ArrayList<>());

        helpers.byRows(40, 32, (from, to) -> threads.add(from + "-" + to + " " + thread()));

        assertThat(threads).containsExactly("0-40 " + thread());
    }

    @Test
    void refusesMorePartsThanThreads() {
        assertThatThrownBy(() -> helpers.inParts(4, part -> part))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("parts must be between 1 and 3: 4");
    }

    private static String thread() {
        return Thread.currentThread().getName();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
