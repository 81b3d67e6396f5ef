package dev.cairn.memory.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.memory.MemoryType;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.RecallBoost;
import dev.cairn.memory.Scope;
import dev.cairn.memory.ScoredMemory;
import dev.cairn.memory.TrigramEmbeddingModel;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.AdaptationStore;
import dev.cairn.retrieval.feedback.AppliedAdaptation;
import dev.cairn.retrieval.feedback.FeedbackLog;
import dev.cairn.retrieval.feedback.HeldBackScore;
import dev.cairn.retrieval.feedback.JudgedPrior;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.retrieval.feedback.LearnedFusion;
import dev.cairn.retrieval.feedback.QueryAdapter;
import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.retrieval.feedback.TuneReport;
import dev.cairn.retrieval.lexical.LexicalConfig;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.safety.WriteGuard;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recall learns from judgments on memories (issue 42): the tuner trains from memory judgments only,
 * stores recall's versions apart from retrieve's, and an active version lifts the memories training
 * queries judged relevant by exactly its bounded prior, says so in the answer, and leaves other
 * namespaces and namespaces without judgments recalling as before. The PostgreSQL subclass runs the
 * same against the other store.
 */
class MemoryAdaptationTest {

    static final int DIMS = 64;
    static final Instant T0 = Instant.parse("2026-11-28T09:00:00Z");

    /** Twelve facts of a team, each the answer to one question. */
    static final Map<String, String> FACTS = new LinkedHashMap<>();

    static {
        FACTS.put("where does the deploy pipeline run?", "The deploy pipeline runs on Jenkins");
        FACTS.put("which database holds the orders?", "Orders are kept in PostgreSQL 15");
        FACTS.put("who is on call this week?", "Priya is on call until Sunday");
        FACTS.put("what editor theme does Tom like?", "Tom prefers the dark editor theme");
        FACTS.put("how often are backups taken?", "Backups are taken every six hours");
        FACTS.put("which region hosts production?", "Production is hosted in eu-west-1");
        FACTS.put("what language is the billing service in?", "The billing service is in Go");
        FACTS.put("when is the release freeze?", "The release freeze starts on 14 December");
        FACTS.put("which queue carries the emails?", "Emails go through the RabbitMQ queue");
        FACTS.put("what is the staging domain?", "Staging lives at staging.example.org");
        FACTS.put("who owns the search service?", "The search service is owned by Mina");
        FACTS.put("how long are logs retained?", "Logs are retained for thirty days");
    }

    @TempDir Path temp;
    Store store;
    MemoryService service;
    final Map<String, String> idOf = new LinkedHashMap<>(); // question -> memory id

    /** The store under test; the PostgreSQL subclass opens a database. */
    Store openStore(Path dir) {
        return Store.embedded(dir, StoreConfig.defaults().withDimensions(DIMS));
    }

    @BeforeEach
    void open() {
        store = openStore(temp.resolve("data"));
        store.createNamespace("team", "");
        store.createNamespace("other", "");
        service =
                MemoryService.create(
                        store,
                        new TrigramEmbeddingModel(DIMS),
                        LexicalIndex.inMemory(LexicalConfig.DEFAULTS),
                        WriteGuard.standard(),
                        MemoryServiceTest.unscheduled(),
                        new MutableClock(T0));
        for (String ns : List.of("team", "other")) {
            FACTS.forEach(
                    (question, fact) -> {
                        String id =
                                service.write(
                                                NewMemory.of(
                                                        Scope.of(ns, "", ""),
                                                        MemoryType.FACT,
                                                        fact),
                                                "test")
                                        .memory()
                                        .id();
                        if (ns.equals("team")) {
                            idOf.put(question, id);
                        }
                    });
        }
    }

    @AfterEach
    void close() {
        // null when the store could not be opened: the PostgreSQL subclass skipped without one
        if (service != null) {
            service.close();
        }
        if (store != null) {
            store.close();
        }
    }

    @Test
    void aNamespaceWithoutMemoryJudgmentsCannotTrainAndRecallsUnadapted() {
        // a document judgment teaches recall nothing
        new FeedbackLog(store.sql())
                .record(
                        "team",
                        List.of(
                                Judgment.draft(
                                        "where does the deploy pipeline run?",
                                        new Judgment.Target(Judgment.Kind.DOCUMENT, "runbook-1"),
                                        1,
                                        Judgment.Source.OPERATOR)));

        assertThatThrownBy(() -> service.tune("team", TuneOptions.DEFAULTS))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has 0 judged queries with a relevant memory");
        assertThat(recall("team", "where does the deploy pipeline run?").adaptation())
                .isEqualTo(AppliedAdaptation.NONE);
        assertThatThrownBy(() -> service.tune("missing", TuneOptions.DEFAULTS))
                .isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void tuningReadsMemoryJudgmentsAndStoresRecallsVersionApartFromRetrieves() {
        judgeEveryQuestion();
        int recalledBefore = recalledMemories();

        Adaptation trained = service.tune("team", TuneOptions.DEFAULTS);

        // twelve judged questions, each with its own memory: a fifth held back (one by memory,
        // then one of the other questions), both unseen, the rest trained on
        assertThat(trained.report().trainQueries()).isEqualTo(10);
        assertThat(trained.report().heldOutQueries()).isEqualTo(2);
        assertThat(trained.report().unseenDocuments().queries()).isEqualTo(2);
        assertThat(trained.report().seenDocuments()).isEqualTo(HeldBackScore.NONE);
        assertThat(trained.report().judgments()).isEqualTo(12);
        assertThat(trained.version()).isEqualTo(1);
        assertThat(trained.state())
                .isEqualTo(
                        trained.report().activated()
                                ? Adaptation.State.ACTIVE
                                : Adaptation.State.REJECTED);
        // the stored prior counts every judged question's memory once
        assertThat(trained.prior().relevantQueries())
                .hasSize(12)
                .containsEntry(idOf.get("who is on call this week?"), 1);
        assertThat(service.adaptations().all("team"))
                .extracting(Adaptation::version)
                .containsExactly(1);
        assertThat(AdaptationStore.documents(store.sql()).all("team")).isEmpty();
        // the tuner's rankings are no recalls of the namespace's users
        assertThat(recalledMemories()).isEqualTo(recalledBefore);
    }

    @Test
    void anActivePriorLiftsJudgedMemoriesByItsBoundedShareAndOnlyInItsNamespace() {
        // "other" holds the same memories and no adaptation: its scores are team's before (a
        // recall in team itself would keep its "no adaptation" for ActiveAdaptations.RECHECK)
        String question = "who is on call this week?";
        String judged = idOf.get(question);
        Map<String, ScoredMemory> before = byContent(recall("other", question));

        Adaptation added =
                service.adaptations()
                        .add(
                                "team",
                                QueryAdapter.identity(DIMS),
                                1.0,
                                new JudgedPrior(0.1, Map.of(judged, 1)),
                                LearnedFusion.NONE,
                                won());
        RecallResult adapted = recall("team", question);

        assertThat(adapted.adaptation())
                .isEqualTo(new AppliedAdaptation(added.version(), 1, 0.1, false));
        assertThat(byContent(adapted).keySet()).isEqualTo(before.keySet());
        for (ScoredMemory m : adapted.memories()) {
            ScoredMemory was = before.get(m.memory().content());
            if (m.id().equals(judged)) {
                double relevanceBefore = was.components().relevance();
                // 1 + 0.1 x 1/2: a memory one training question judged relevant is 5% more
                assertThat(m.components().boosts().get(RecallBoost.JUDGED))
                        .isCloseTo(relevanceBefore * 0.05, within(1e-12));
                assertThat(m.components().relevance())
                        .isCloseTo(relevanceBefore * 1.05, within(1e-12));
            } else {
                assertThat(m.components().boosts()).doesNotContainKey(RecallBoost.JUDGED);
                assertThat(m.score()).isEqualTo(was.score());
            }
        }
        assertThat(recall("other", question).adaptation()).isEqualTo(AppliedAdaptation.NONE);

        assertThat(service.rollbackAdaptation("team")).isEmpty();
        RecallResult rolledBack = recall("team", question);
        assertThat(rolledBack.adaptation()).isEqualTo(AppliedAdaptation.NONE);
        for (ScoredMemory m : rolledBack.memories()) {
            assertThat(m.score()).isEqualTo(before.get(m.memory().content()).score());
        }
        assertThatThrownBy(() -> service.rollbackAdaptation("team"))
                .isInstanceOf(NoSuchElementException.class)
                .hasMessage("namespace 'team' has no active adaptation");
    }

    @Test
    void anActiveAdapterMapsTheQueryBeforeTheDenseScanAndScalesTheDenseWeight() {
        String question = "how long are logs retained?";
        float[] flipped =
                new float[DIMS * DIMS]; // q -> -q: the nearest memories become the farthest
        for (int i = 0; i < DIMS; i++) {
            flipped[i * DIMS + i] = -1;
        }
        RecallResult before = recall("other", question);
        assertThat(before.memories().getFirst().memory().content()).isEqualTo(FACTS.get(question));

        service.adaptations()
                .add(
                        "team",
                        QueryAdapter.of(DIMS, flipped),
                        2.0,
                        JudgedPrior.NONE,
                        LearnedFusion.NONE,
                        won());
        RecallResult adapted = recall("team", question);

        assertThat(adapted.adaptation()).isEqualTo(new AppliedAdaptation(1, 2.0, 0, false));
        // every cosine is negated: the answer, nearest before, is now below the cosine floor, and
        // BM25's match on "logs retained" no longer keeps it (only a verbatim query would)
        assertThat(adapted.memories()).noneMatch(m -> m.id().equals(idOf.get(question)));
    }

    private void judgeEveryQuestion() {
        List<Judgment> drafts = new ArrayList<>();
        idOf.forEach(
                (question, id) ->
                        drafts.add(
                                Judgment.draft(
                                        question,
                                        new Judgment.Target(Judgment.Kind.MEMORY, id),
                                        1,
                                        Judgment.Source.OPERATOR)));
        new FeedbackLog(store.sql()).record("team", drafts);
    }

    private int recalledMemories() {
        return (int)
                service
                        .list(
                                "team",
                                dev.cairn.memory.store.MemoryFilter.all(),
                                new dev.cairn.store.PageRequest(100, ""))
                        .items()
                        .stream()
                        .filter(m -> !m.lastRecalledAt().equals(Instant.EPOCH))
                        .count();
    }

    private RecallResult recall(String ns, String query) {
        return service.recall(
                RecallRequest.of(ns, query)
                        .withLimit(12)
                        .withRecallScope(
                                java.util.Optional.of(
                                        dev.cairn.store.Namespace.RecallScope.NAMESPACE))
                        .withTimeout(Duration.ofSeconds(30)));
    }

    private static Map<String, ScoredMemory> byContent(RecallResult r) {
        Map<String, ScoredMemory> out = new LinkedHashMap<>();
        r.memories().forEach(m -> out.put(m.memory().content(), m));
        return out;
    }

    /** A report that activates its version (stored as if training had found it). */
    static TuneReport won() {
        return new TuneReport(
                5, 1, 6, 0, 0.5, 0.6, true, 1.0, 0, 1, HeldBackScore.NONE, HeldBackScore.NONE, 0);
    }
}
