package dev.cairn.agents.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.store.Change;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Watchers wake on their namespace's appends, are bounded per namespace, and end on a stop. */
class MessageWatchTest {

    static Change append(String namespace, long seq) {
        return new Change(
                seq, namespace, Change.Kind.MESSAGE, "m" + seq, Change.Op.UPSERT, Instant.EPOCH);
    }

    @Test
    void anAppendWakesTheNamespacesWatchersOnly() throws Exception {
        MessageWatch watch = new MessageWatch(() -> 0, 4);
        MessageWatch.Watcher here = watch.open("here").orElseThrow();
        MessageWatch.Watcher there = watch.open("there").orElseThrow();

        watch.apply(List.of(append("here", 1)));

        assertThat(here.awaitAppend(Duration.ofSeconds(5))).isTrue();
        assertThat(there.awaitAppend(Duration.ofMillis(50))).isFalse();
        assertThat(here.ended()).isFalse();
    }

    @Test
    void aNamespaceHoldsAtMostItsBoundAndAClosedWatcherGivesItsSlotBack() {
        MessageWatch watch = new MessageWatch(() -> 0, 2);
        MessageWatch.Watcher first = watch.open("ns").orElseThrow();
        watch.open("ns").orElseThrow();
        assertThat(watch.open("ns")).isEmpty();
        first.close();
        assertThat(watch.watching("ns")).isEqualTo(1);
        assertThat(watch.open("ns")).isPresent();
    }

    @Test
    void endAllWakesEveryWaitingWatcherAndEndsLaterOnesAtOnce() throws Exception {
        MessageWatch watch = new MessageWatch(() -> 0, 4);
        MessageWatch.Watcher waiting = watch.open("ns").orElseThrow();
        CompletableFuture<Boolean> woke =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return waiting.awaitAppend(Duration.ofMinutes(1));
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });

        watch.endAll();

        assertThat(woke.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(waiting.ended()).isTrue();
        assertThat(watch.open("other").orElseThrow().ended()).isTrue();
    }
}
