package dev.cairn.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WriteBehindTest {

    @Test
    void itemsQueuedWhileAWriteRunsAreWrittenTogetherInOrder() throws Exception {
        List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch firstWriteStarted = new CountDownLatch(1);
        CountDownLatch releaseFirstWrite = new CountDownLatch(1);
        WriteBehind<Integer> writes =
                new WriteBehind<>(
                        "test-writer",
                        batch -> {
                            batches.add(List.copyOf(batch));
                            firstWriteStarted.countDown();
                            try {
                                releaseFirstWrite.await(10, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        Duration.ofSeconds(10));
        writes.add(0);
        assertThat(firstWriteStarted.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 1; i <= 50; i++) {
            writes.add(i);
        }
        assertThat(writes.queued()).isEqualTo(50);
        releaseFirstWrite.countDown();
        writes.close();

        assertThat(batches).hasSize(2);
        assertThat(batches.get(0)).containsExactly(0);
        assertThat(batches.get(1)).hasSize(50).isSorted().startsWith(1).endsWith(50);
    }

    @Test
    void aFailingWriteIsLoggedAndLaterItemsAreStillWritten() {
        List<Integer> written = Collections.synchronizedList(new ArrayList<>());
        WriteBehind<Integer> writes =
                new WriteBehind<>(
                        "test-writer",
                        batch -> {
                            if (batch.contains(13)) {
                                throw new IllegalStateException("disk full");
                            }
                            written.addAll(batch);
                        },
                        Duration.ofSeconds(10));
        writes.add(13);
        writes.close();
        writes.add(14); // after close: written in the caller's thread
        assertThat(written).containsExactly(14);
    }
}
