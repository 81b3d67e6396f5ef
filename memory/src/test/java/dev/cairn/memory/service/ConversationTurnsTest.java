package dev.cairn.memory.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.memory.Memory;
import dev.cairn.memory.MemoryLifecycle;
import dev.cairn.memory.MemorySource;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ConversationTurnsTest {

    static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    static final MemoryLifecycle LIFECYCLE = MemoryLifecycle.defaults();

    static Memory turn(String id, String session, int second, MemorySource.Kind kind) {
        return LIFECYCLE.create(
                id,
                NewMemory.of(
                                new Scope("ns", "u", "", session, "", ""),
                                MemoryType.EVENT,
                                "text " + id)
                        .withSource(MemorySource.of(kind, id)),
                "",
                T0.plusSeconds(second));
    }

    @Test
    void neighboursAreTheTurnsBeforeAndAfterInTheSameSessionByTimeThenId() {
        ConversationTurns turns = new ConversationTurns();
        turns.put(turn("c", "s1", 2, MemorySource.Kind.CONVERSATION));
        turns.put(turn("a", "s1", 0, MemorySource.Kind.CONVERSATION));
        turns.put(turn("b2", "s1", 1, MemorySource.Kind.CONVERSATION));
        turns.put(turn("b1", "s1", 1, MemorySource.Kind.CONVERSATION));
        turns.put(turn("x", "s2", 1, MemorySource.Kind.CONVERSATION));
        turns.put(turn("api", "s1", 1, MemorySource.Kind.API));

        assertThat(turns.before("b1")).contains("a");
        assertThat(turns.after("b1")).contains("b2");
        assertThat(turns.after("b2")).contains("c");
        assertThat(turns.before("a")).isEmpty();
        assertThat(turns.after("c")).isEmpty();
        assertThat(turns.before("x")).isEmpty();
        assertThat(turns.after("x")).isEmpty();
        assertThat(turns.before("api")).isEmpty();

        turns.remove("b2");
        assertThat(turns.after("b1")).contains("c");
        turns.put(turn("b1", "s1", 3, MemorySource.Kind.CONVERSATION)); // moved later
        assertThat(turns.after("c")).contains("b1");
        assertThat(turns.after("a")).contains("c");
    }
}
