package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryLifecycleTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final Scope SCOPE = Scope.of("acme", "u1", "agent-a");
    private final MemoryLifecycle lifecycle = MemoryLifecycle.defaults();

    private Memory memory(String id, MemoryType type, String content) {
        return lifecycle.create(id, NewMemory.of(SCOPE, type, content), "bge-small", T0);
    }

    @Test
    void typesCarryTheirDefaultTtlAndLayer() {
        assertThat(MemoryType.FACT.defaultTtlDays()).isEqualTo(730);
        assertThat(MemoryType.EVENT.defaultTtlDays()).isEqualTo(365);
        assertThat(MemoryType.TASK.defaultTtlDays()).isEqualTo(90);
        assertThat(MemoryType.PROCEDURE.defaultLayer()).isEqualTo(Layer.PROCEDURAL);
        assertThat(MemoryType.TASK.defaultLayer()).isEqualTo(Layer.PROACTIVE);
        assertThat(MemoryType.RELATIONSHIP.defaultLayer()).isEqualTo(Layer.CONVERSATIONAL);
        assertThat(Layer.EPISODIC.priority()).isLessThan(Layer.PROCEDURAL.priority());
        assertThat(Layer.CONVERSATIONAL.priority()).isLessThan(Layer.PROACTIVE.priority());
    }

    @Test
    void parsingIsCaseInsensitiveAndRejectsUnknownNamesListingTheAllowedOnes() {
        assertThat(MemoryType.parse(" preference ")).isEqualTo(MemoryType.PREFERENCE);
        assertThat(MemoryStatus.parse("stale")).isEqualTo(MemoryStatus.STALE);
        assertThat(Layer.parse("Procedural")).isEqualTo(Layer.PROCEDURAL);
        assertThat(MemorySource.Kind.parse("memory_proposal"))
                .isEqualTo(MemorySource.Kind.MEMORY_PROPOSAL);
        assertThatThrownBy(() -> MemoryType.parse("opinion"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("opinion")
                .hasMessageContaining("FACT, EVENT, PREFERENCE");
        assertThatThrownBy(() -> Layer.parse(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("EPISODIC, PROCEDURAL, CONVERSATIONAL, PROACTIVE");
    }

    @Test
    void createdMemoryExpiresAfterTheTypeDefaultTtlUnlessOneIsGiven() {
        Memory task = memory("m1", MemoryType.TASK, "Rotate the staging certificates");
        assertThat(task.expiresAt()).isEqualTo(T0.plus(Duration.ofDays(90)));
        assertThat(task.status()).isEqualTo(MemoryStatus.ACTIVE);
        assertThat(task.lastRecalled()).isEmpty();
        Memory custom =
                lifecycle.create(
                        "m2",
                        NewMemory.of(SCOPE, MemoryType.FACT, "x is y").withTtlDays(7),
                        "",
                        T0);
        assertThat(custom.expiresAt()).isEqualTo(T0.plus(Duration.ofDays(7)));
    }

    @Test
    void tagsAreLowercasedTrimmedDedupedAndSorted() {
        NewMemory draft =
                NewMemory.of(SCOPE, MemoryType.FACT, "Billing runs on Postgres 16")
                        .withTags(List.of(" Postgres", "billing", "POSTGRES ", "", "Data Store"));
        assertThat(draft.tags()).containsExactly("billing", "data-store", "postgres");
    }

    @Test
    void recordsRejectOutOfRangeValuesNamingThem() {
        assertThatThrownBy(() -> NewMemory.of(SCOPE, MemoryType.FACT, "abc").withConfidence(1.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("illegal confidence: 1.5, must be in [0, 1]");
        assertThatThrownBy(() -> Scope.of(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("namespace");
        assertThatThrownBy(() -> NewMemory.of(SCOPE, MemoryType.FACT, "abc").withTtlDays(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }

    @Test
    void activeMemoryPastTtlBecomesStaleWithASystemTransition() {
        Memory task = memory("m1", MemoryType.TASK, "Rotate the staging certificates");
        assertThat(lifecycle.expireIfDue(task, T0.plus(Duration.ofDays(89)))).isEmpty();
        Transitioned t = lifecycle.expireIfDue(task, T0.plus(Duration.ofDays(90))).orElseThrow();
        assertThat(t.memory().status()).isEqualTo(MemoryStatus.STALE);
        assertThat(t.transitions())
                .singleElement()
                .satisfies(
                        st -> {
                            assertThat(st.from()).isEqualTo(MemoryStatus.ACTIVE);
                            assertThat(st.to()).isEqualTo(MemoryStatus.STALE);
                            assertThat(st.actor()).isEqualTo("system");
                        });
    }

    @Test
    void illegalTransitionThrowsIllegalStateNamingFromAndTo() {
        Memory m = memory("m1", MemoryType.FACT, "Billing runs on Postgres 16");
        Memory invalid = lifecycle.invalidate(m, T0, "alice", "wrong version").memory();
        assertThatThrownBy(() -> lifecycle.transition(invalid, MemoryStatus.ACTIVE, T0, "bob", "x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("INVALIDATED -> ACTIVE");
        assertThatThrownBy(() -> lifecycle.transition(m, MemoryStatus.REJECTED, T0, "bob", ""))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ACTIVE -> REJECTED");
        Memory superseded =
                lifecycle.transition(m, MemoryStatus.SUPERSEDED, T0, "system", "").memory();
        assertThatThrownBy(() -> lifecycle.transition(superseded, MemoryStatus.ACTIVE, T0, "x", ""))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("SUPERSEDED -> ACTIVE");
    }

    @Test
    void invalidationNeedsAReasonAndIsAllowedFromEveryOtherStatus() {
        Memory m = memory("m1", MemoryType.FACT, "Billing runs on Postgres 16");
        assertThatThrownBy(() -> lifecycle.invalidate(m, T0, "alice", " "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reason");
        for (MemoryStatus s : MemoryStatus.values()) {
            assertThat(s.canTransitionTo(MemoryStatus.INVALIDATED))
                    .as("%s -> INVALIDATED", s)
                    .isEqualTo(s != MemoryStatus.INVALIDATED);
        }
        Transitioned t = lifecycle.invalidate(m, T0.plusSeconds(5), "alice", "wrong version");
        assertThat(t.transitions().get(0).reason()).isEqualTo("wrong version");
        assertThat(t.memory().updatedAt()).isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void supersedesOlderMemoryWithSameConflictKeyAndScope() {
        Memory older =
                lifecycle.create(
                        "m1",
                        NewMemory.of(SCOPE, MemoryType.PREFERENCE, "Prefers tabs")
                                .withConflictKey("indent"),
                        "",
                        T0);
        Memory otherScope =
                lifecycle.create(
                        "m0",
                        NewMemory.of(SCOPE.withUser("u2"), MemoryType.PREFERENCE, "Prefers tabs")
                                .withConflictKey("indent"),
                        "",
                        T0);
        Memory newer =
                lifecycle.create(
                        "m2",
                        NewMemory.of(SCOPE, MemoryType.PREFERENCE, "Prefers spaces")
                                .withConflictKey("indent"),
                        "",
                        T0.plusSeconds(60));
        assertThat(lifecycle.supersededBy(newer, List.of(older, otherScope, newer)))
                .containsExactly(older);
        Transitioned t = lifecycle.supersede(older, newer, T0.plusSeconds(60));
        assertThat(t.memory().status()).isEqualTo(MemoryStatus.SUPERSEDED);
        assertThat(t.transitions().get(0).reason()).isEqualTo("superseded by m2");
        assertThatThrownBy(() -> lifecycle.supersede(otherScope, newer, T0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void exactDuplicateIgnoresCaseWhitespaceAndTrailingPunctuation() {
        Memory existing = memory("m1", MemoryType.PREFERENCE, "I prefer pnpm over npm.");
        NewMemory incoming =
                NewMemory.of(SCOPE, MemoryType.PREFERENCE, "  i PREFER   pnpm over npm ");
        assertThat(lifecycle.decide(incoming, List.of(new Neighbour(existing, 0.5))))
                .isEqualTo(new DedupDecision.Duplicate(existing));
        NewMemory otherType = NewMemory.of(SCOPE, MemoryType.FACT, "I prefer pnpm over npm");
        assertThat(lifecycle.decide(otherType, List.of(new Neighbour(existing, 0.99))))
                .isEqualTo(new DedupDecision.Insert());
    }

    @Test
    void nearDuplicateAboveThresholdMergesIntoMostSimilarActiveMemory() {
        Memory a = memory("m1", MemoryType.FACT, "Billing runs on Postgres 16");
        Memory b = memory("m2", MemoryType.FACT, "Billing service uses Postgres 16");
        Memory stale =
                lifecycle
                        .transition(
                                memory("m0", MemoryType.FACT, "Billing is on Postgres"),
                                MemoryStatus.STALE,
                                T0,
                                "system",
                                "ttl")
                        .memory();
        NewMemory incoming = NewMemory.of(SCOPE, MemoryType.FACT, "The billing DB is Postgres 16");
        DedupDecision d =
                lifecycle.decide(
                        incoming,
                        List.of(
                                new Neighbour(a, 0.93),
                                new Neighbour(b, 0.95),
                                new Neighbour(stale, 0.99)));
        assertThat(d).isEqualTo(new DedupDecision.Merge(b, 0.95));
        assertThat(lifecycle.decide(incoming, List.of(new Neighbour(a, 0.919))))
                .isEqualTo(new DedupDecision.Insert());
        MemoryLifecycle loose = MemoryLifecycle.create(new MemoryLifecycle.Config(0.9));
        assertThat(loose.decide(incoming, List.of(new Neighbour(a, 0.91))))
                .isEqualTo(new DedupDecision.Merge(a, 0.91));
    }

    @Test
    void twoTurnsOfAConversationNeverMergeButARepeatedTurnIsADuplicate() {
        MemorySource turn1 = MemorySource.of(MemorySource.Kind.CONVERSATION, "D1:3");
        MemorySource turn2 = MemorySource.of(MemorySource.Kind.CONVERSATION, "D1:5");
        Memory said =
                lifecycle.create(
                        "m1",
                        NewMemory.of(SCOPE, MemoryType.EVENT, "Mel: we went camping last week")
                                .withSource(turn1),
                        "",
                        T0);
        NewMemory another =
                NewMemory.of(SCOPE, MemoryType.EVENT, "Mel: we went camping at the lake")
                        .withSource(turn2);

        assertThat(lifecycle.decide(another, List.of(new Neighbour(said, 0.97))))
                .isEqualTo(new DedupDecision.Insert());
        assertThat(lifecycle.decide(another.withSource(turn1), List.of(new Neighbour(said, 0.97))))
                .isEqualTo(new DedupDecision.Merge(said, 0.97));
        assertThat(
                        lifecycle.decide(
                                another.withSource(MemorySource.api()),
                                List.of(new Neighbour(said, 0.97))))
                .isEqualTo(new DedupDecision.Merge(said, 0.97));
        NewMemory repeated =
                NewMemory.of(SCOPE, MemoryType.EVENT, "Mel: we went camping last week")
                        .withSource(turn2);
        assertThat(lifecycle.decide(repeated, List.of(new Neighbour(said, 1.0))))
                .isEqualTo(new DedupDecision.Duplicate(said));
    }

    @Test
    void reinforcementCombinesConfidenceUnitesTagsAndRevivesStaleMemory() {
        Memory existing =
                lifecycle.create(
                        "m1",
                        NewMemory.of(SCOPE, MemoryType.FACT, "Billing runs on Postgres 16")
                                .withConfidence(0.6)
                                .withTags(List.of("billing")),
                        "",
                        T0);
        existing = existing.recalled(T0.plusSeconds(10));
        Memory stale =
                lifecycle
                        .transition(
                                existing, MemoryStatus.STALE, T0.plusSeconds(20), "system", "ttl")
                        .memory();
        NewMemory incoming =
                NewMemory.of(SCOPE, MemoryType.FACT, "billing runs on postgres 16")
                        .withConfidence(0.5)
                        .withTags(List.of("db", "billing"));
        Instant later = T0.plus(Duration.ofDays(800));
        Transitioned t = lifecycle.reinforce(stale, incoming, later);
        assertThat(t.memory().confidence())
                .isCloseTo(0.8, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(t.memory().tags()).containsExactly("billing", "db");
        assertThat(t.memory().status()).isEqualTo(MemoryStatus.ACTIVE);
        assertThat(t.memory().recalledCount()).isEqualTo(1);
        assertThat(t.memory().updatedAt()).isEqualTo(later);
        assertThat(t.memory().expiresAt()).isEqualTo(later.plus(Duration.ofDays(730)));
        assertThat(t.memory().content()).isEqualTo("Billing runs on Postgres 16");
        assertThat(t.transitions())
                .extracting(StatusTransition::from, StatusTransition::to)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                MemoryStatus.STALE, MemoryStatus.ACTIVE));
        assertThatThrownBy(
                        () ->
                                lifecycle.reinforce(
                                        lifecycle
                                                .invalidate(existing0(), T0, "a", "wrong")
                                                .memory(),
                                        incoming,
                                        later))
                .isInstanceOf(IllegalStateException.class);
    }

    private Memory existing0() {
        return memory("m9", MemoryType.FACT, "Billing runs on Postgres 16");
    }

    @Test
    void confidenceReinforcementIsIndependentEvidence() {
        assertThat(MemoryLifecycle.reinforceConfidence(0.5, 0.5)).isEqualTo(0.75);
        assertThat(MemoryLifecycle.reinforceConfidence(0.0, 0.3))
                .isCloseTo(0.3, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(MemoryLifecycle.reinforceConfidence(1.0, 0.1)).isEqualTo(1.0);
    }
}
