package dev.cairn.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one catch-up loop: positions, batches, failures, commits and the interval, on SQLite. */
class ChangeLogTest {

    @TempDir Path dir;
    Store store;

    /** An index that records what it was given, and can be told to fail. */
    static final class RecordingIndex implements DerivedIndex {
        final List<String> applied = new ArrayList<>();
        long position;
        int commits;
        int failuresLeft;

        RecordingIndex(long position) {
            this.position = position;
        }

        @Override
        public String name() {
            return "recording";
        }

        @Override
        public long lastAppliedSeq() {
            return position;
        }

        @Override
        public synchronized void apply(List<Change> changes) {
            if (failuresLeft > 0) {
                failuresLeft--;
                throw new IllegalStateException("told to fail");
            }
            changes.forEach(c -> applied.add(c.kind() + " " + c.entityId()));
        }

        @Override
        public void applied(long seq) {
            position = seq;
        }

        @Override
        public void commit() {
            commits++;
        }

        @Override
        public void reset() {
            applied.clear();
            position = 0;
        }

        synchronized List<String> applied() {
            return List.copyOf(applied);
        }
    }

    @BeforeEach
    void open() {
        store = Store.embedded(dir, StoreConfig.defaults().withCatchUpInterval(Duration.ZERO));
        store.createNamespace("ns", "");
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void write(String id) {
        StoreContractTest.appendChange(store, "ns", Change.Kind.DOCUMENT, id, Change.Op.UPSERT);
    }

    @Test
    void followReplaysFromTheIndexPositionAndCatchUpDeliversOnlyNewChanges() {
        write("d1");
        RecordingIndex fresh = new RecordingIndex(0);
        RecordingIndex current = new RecordingIndex(store.lastChangeSeq());

        store.changeLog().follow(fresh);
        store.changeLog().follow(current);
        assertThat(fresh.applied()).containsExactly("NAMESPACE ns", "DOCUMENT d1");
        assertThat(current.applied()).isEmpty();

        write("d2");
        StoreContractTest.appendChange(store, "ns", Change.Kind.DOCUMENT, "d1", Change.Op.DELETE);
        store.changeLog().catchUp();

        assertThat(fresh.applied())
                .containsExactly("NAMESPACE ns", "DOCUMENT d1", "DOCUMENT d2", "DOCUMENT d1");
        assertThat(current.applied()).containsExactly("DOCUMENT d2", "DOCUMENT d1");
        assertThat(current.position).isEqualTo(store.lastChangeSeq());
        assertThat(store.changeLog().appliedSeq()).isEqualTo(store.lastChangeSeq());
    }

    @Test
    void anIndexAheadOfTheStoreIsRebuiltSoItDoesNotSkipTheChangesThatReuseItsSequences() {
        write("d1");
        // an index kept beside a store that was then restored from an older backup
        RecordingIndex ahead = new RecordingIndex(store.lastChangeSeq() + 5);
        ahead.applied.add("DOCUMENT gone");

        store.changeLog().follow(ahead);

        assertThat(ahead.applied()).containsExactly("NAMESPACE ns", "DOCUMENT d1");
        write("d2");
        store.changeLog().catchUp();
        assertThat(ahead.applied()).containsExactly("NAMESPACE ns", "DOCUMENT d1", "DOCUMENT d2");
        assertThat(ahead.position).isEqualTo(store.lastChangeSeq());
    }

    @Test
    void aFailingIndexStopsAtItsPositionIsRetriedAndDoesNotHoldUpTheOthers() {
        RecordingIndex failing = new RecordingIndex(store.lastChangeSeq());
        RecordingIndex healthy = new RecordingIndex(store.lastChangeSeq());
        store.changeLog().follow(failing);
        store.changeLog().follow(healthy);
        long before = failing.position;

        failing.failuresLeft = 1;
        write("d1");
        store.changeLog().catchUp();
        assertThat(failing.applied()).isEmpty();
        assertThat(failing.position).isEqualTo(before);
        assertThat(healthy.applied()).containsExactly("DOCUMENT d1");
        // both are named "recording": the one behind is what positions() reports
        assertThat(store.changeLog().positions())
                .containsExactly(java.util.Map.entry("recording", before));

        store.changeLog().catchUpIfBehind();
        assertThat(failing.applied()).containsExactly("DOCUMENT d1");
        assertThat(failing.position).isEqualTo(store.lastChangeSeq());
    }

    @Test
    void rebuildReplaysTheWholeLogAndUnfollowCommits() {
        write("d1");
        RecordingIndex index = new RecordingIndex(store.lastChangeSeq());
        store.changeLog().follow(index);

        store.changeLog().rebuild(index);
        assertThat(index.applied()).containsExactly("NAMESPACE ns", "DOCUMENT d1");

        store.changeLog().unfollow(index);
        assertThat(index.commits).isEqualTo(1);
        write("d2");
        store.changeLog().catchUp();
        assertThat(index.applied()).hasSize(2);
    }

    @Test
    void theIntervalLoopPicksUpWritesNobodyCaughtUpFor() throws InterruptedException {
        try (Store looping =
                Store.embedded(
                        dir.resolve("looping"),
                        StoreConfig.defaults().withCatchUpInterval(Duration.ofMillis(20)))) {
            looping.createNamespace("ns", "");
            RecordingIndex index = new RecordingIndex(looping.lastChangeSeq());
            looping.changeLog().follow(index);

            StoreContractTest.appendChange(
                    looping, "ns", Change.Kind.DOCUMENT, "d1", Change.Op.UPSERT);

            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (index.applied().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(index.applied()).containsExactly("DOCUMENT d1");
        }
    }

    @Test
    void anIndexIsFollowedOnceAndNotAfterClose() {
        RecordingIndex index = new RecordingIndex(0);
        store.changeLog().follow(index);
        assertThatThrownBy(() -> store.changeLog().follow(index))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("registered already");
        store.close();
        assertThatThrownBy(() -> store.changeLog().follow(new RecordingIndex(0)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }
}
