package dev.cairn.eval.locomo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.memory.ScoredMemory;
import dev.cairn.memory.TrigramEmbeddingModel;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.memory.service.MemoryServiceConfig;
import dev.cairn.memory.service.RecallMode;
import dev.cairn.memory.service.RecallRequest;
import dev.cairn.retrieval.feedback.FeedbackLog;
import dev.cairn.retrieval.feedback.HeldBackScore;
import dev.cairn.retrieval.feedback.JudgedPrior;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.retrieval.feedback.LearnedFusion;
import dev.cairn.retrieval.feedback.QueryAdapter;
import dev.cairn.retrieval.feedback.TuneReport;
import dev.cairn.retrieval.lexical.LexicalConfig;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.safety.WriteGuard;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** LoCoMo parsing and the evaluation loop on a two-session miniature in the real format. */
class LocomoEvalTest {

    static final String MINI =
            """
            [{"sample_id": "conv-1",
              "conversation": {
                "speaker_a": "Ana", "speaker_b": "Ben",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                  {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a puppy named Biscuit"},
                  {"speaker": "Ben", "dia_id": "D1:2", "text": "Lovely! I am learning the violin"}],
                "session_2_date_time": "10:00 am on 2 June, 2023",
                "session_2": [
                  {"speaker": "Ana", "dia_id": "D2:1", "text": "Look at this", "blip_caption": "a photo of a sunset over the lake"},
                  {"speaker": "Ben", "dia_id": "D2:2", "text": "My violin teacher moved to Oslo"}]},
              "qa": [
                {"question": "What is the name of Ana's puppy?", "answer": "Biscuit", "evidence": ["D1:1"], "category": 1},
                {"question": "Where did the violin teacher move?", "evidence": ["D2:2; D1:2"], "category": 2},
                {"question": "Unanswerable", "evidence": ["D9:9"], "category": 5}]}]
            """;

    @TempDir Path temp;

    @Test
    void readsTurnsDatesCaptionsAndSplitsEvidence() throws IOException {
        Path file = Files.writeString(temp.resolve("mini.json"), MINI);
        List<Locomo.Conversation> cs = Locomo.read(file);

        Locomo.Conversation c = cs.getFirst();
        assertThat(c.turns()).hasSize(4);
        assertThat(c.turns().getFirst().at()).isEqualTo(Instant.parse("2023-05-08T13:56:00Z"));
        assertThat(c.turns().get(2).text()).contains("sunset over the lake");
        assertThat(c.questions().get(1).evidence()).containsExactly("D2:2", "D1:2");
    }

    @Test
    void aTurnsMemoryCarriesTheTurnsBeforeItInTheSessionOnly() throws IOException {
        Path file = Files.writeString(temp.resolve("mini.json"), MINI);
        List<Locomo.Turn> turns = Locomo.read(file).getFirst().turns();
        List<Locomo.Turn> session1 = turns.subList(0, 2);

        assertThat(LocomoEval.content(session1, 0, 1))
                .isEqualTo("Ana: I adopted a puppy named Biscuit");
        assertThat(LocomoEval.content(session1, 1, 1))
                .isEqualTo(
                        "Ana: I adopted a puppy named Biscuit\nBen: Lovely! I am learning the"
                                + " violin");
        assertThat(LocomoEval.content(session1, 1, 0))
                .isEqualTo("Ben: Lovely! I am learning the violin");
        assertThatThrownBy(() -> new LocomoEval(null, null, -1, x -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("contextTurns");
    }

    /** The memory service the eval runs on, over a small trigram model, as the command sets it. */
    private static MemoryService service(Store store) {
        return service(store, Clock.systemUTC());
    }

    private static MemoryService service(Store store, Clock clock) {
        return MemoryService.create(
                store,
                new TrigramEmbeddingModel(128),
                LexicalIndex.inMemory(LexicalConfig.DEFAULTS),
                WriteGuard.standard(),
                MemoryServiceConfig.defaults()
                        .withRecall(MemoryServiceConfig.Recall.defaults().withRecordRecalls(false))
                        .withMaintenance(
                                MemoryServiceConfig.Maintenance.defaults()
                                        .withInterval(Duration.ZERO)),
                clock);
    }

    /** A file of the mini conversation and, as conv-2, a copy of it changed by {@code change}. */
    private static String miniAndThen(java.util.function.UnaryOperator<String> change) {
        String sample = MINI.strip().substring(1, MINI.strip().length() - 1);
        return "[" + sample + "," + change.apply(sample.replace("conv-1", "conv-2")) + "]";
    }

    @Test
    void eachConversationsQuestionsAreAskedADayAfterItsLastTurn() throws IOException {
        // conv-2 is conv-1 a year later
        String twice = miniAndThen(mini -> mini.replace(", 2023", ", 2024"));
        Path file = Files.writeString(temp.resolve("year.json"), twice);
        QuestionTime time = new QuestionTime(Instant.parse("2030-01-01T00:00:00Z"));
        try (Store store =
                        Store.embedded(
                                temp.resolve("data"), StoreConfig.defaults().withDimensions(128));
                MemoryService service = service(store, time)) {
            Map<String, Instant> askedAt = new java.util.LinkedHashMap<>();
            new LocomoEval(store, service, x -> {})
                    .askingAt(time)
                    .onQuestion(q -> askedAt.putIfAbsent(q.sampleId(), time.instant()))
                    .run(Locomo.read(file), List.of(4), List.of(RecallMode.LEXICAL), 0.0);

            // session 2 of each began at 10:00 on 2 June
            assertThat(askedAt)
                    .containsExactly(
                            Map.entry("conv-1", Instant.parse("2023-06-03T10:00:00Z")),
                            Map.entry("conv-2", Instant.parse("2024-06-03T10:00:00Z")));
            // recall measures a turn's age from then: D2:2, written a second after 10:00, is
            // a day old less a second, not years
            ScoredMemory teacher =
                    service.recall(
                                    RecallRequest.of("locomo-conv-2", "violin teacher Oslo")
                                            .withMode(RecallMode.LEXICAL))
                            .memories()
                            .getFirst();
            assertThat(teacher.memory().source().reference()).isEqualTo("D2:2");
            assertThat(teacher.components().recency())
                    .isCloseTo(Math.pow(0.5, (86_400 - 1) / 86_400.0 / 120), within(1e-9));
        }
    }

    @Test
    void inOneNamespaceTheQuestionsAreAskedADayAfterTheLastTurnOfAll() {
        Locomo.Conversation early = conversation("conv-1", "2023-05-08T13:56:00Z");
        Locomo.Conversation late = conversation("conv-2", "2024-02-29T08:00:00Z");
        QuestionTime time = new QuestionTime(Instant.EPOCH);
        time.askAbout(List.of(late, early));
        assertThat(time.instant()).isEqualTo(Instant.parse("2024-03-01T08:00:00Z"));
        assertThatThrownBy(() -> time.askAbout(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no turns");
    }

    private static Locomo.Conversation conversation(String id, String at) {
        return new Locomo.Conversation(
                id,
                "Ana",
                "Ben",
                List.of(new Locomo.Turn("D1:1", "Ana", "hello", 1, Instant.parse(at))),
                List.of());
    }

    @Test
    void measuresEvidenceRecallPerMode() throws IOException {
        Path file = Files.writeString(temp.resolve("mini.json"), MINI);
        try (Store store =
                        Store.embedded(
                                temp.resolve("data"), StoreConfig.defaults().withDimensions(128));
                MemoryService service = service(store)) {
            List<String> log = new ArrayList<>();
            LocomoEval.Result r =
                    new LocomoEval(store, service, log::add)
                            .run(
                                    Locomo.read(file),
                                    List.of(1, 4),
                                    List.of(RecallMode.LEXICAL, RecallMode.HYBRID),
                                    0.0);

            assertThat(r.turns()).isEqualTo(4);
            assertThat(r.questions()).isEqualTo(2);
            LocomoEval.ModeResult bm25 = r.modes().getFirst();
            assertThat(bm25.recallAtK().get(4)).isEqualTo(1.0);
            // At k = 1: "Ana's puppy" finds D1:1 and Ben's reply D1:2, whose memory quotes D1:1 as
            // its context; the session lift takes both past 1 and, uncapped, keeps D1:1 (the
            // better match) first, so question 1 scores 1 at k = 1 and question 2 half (one of its
            // two turns). When the lift was capped at 1, both tied there and the later turn's
            // recency put the reply first: 0.25.
            assertThat(bm25.recallAtK().get(1)).isEqualTo(0.75);
            assertThat(
                            service.get(
                                            "locomo-conv-1",
                                            service.list(
                                                            "locomo-conv-1",
                                                            dev.cairn.memory.store.MemoryFilter
                                                                    .all()
                                                                    .withText("biscuit"),
                                                            dev.cairn.store.PageRequest.first(1))
                                                    .items()
                                                    .getFirst()
                                                    .id())
                                    .createdAt())
                    .isEqualTo(Instant.parse("2023-05-08T13:56:00Z"));
        }
    }

    @Test
    void aRunInTheWorkDirOfATuningRunRecallsAsANamespaceNobodyJudged() throws IOException {
        Path file = Files.writeString(temp.resolve("mini.json"), MINI);
        List<Locomo.Conversation> conversations = Locomo.read(file);
        String ns = "locomo-conv-1";
        try (Store store =
                Store.embedded(temp.resolve("data"), StoreConfig.defaults().withDimensions(128))) {
            LocomoEval.ModeResult first;
            FeedbackLog feedback = new FeedbackLog(store.sql());
            try (MemoryService service = service(store)) {
                first = hybridRun(store, service, conversations);
                // what a --tune-share run leaves: judgments, and an active adaptation whose prior
                // lifts the photo turn (D2:1) far past every other
                var photoMemory =
                        service.list(
                                        ns,
                                        dev.cairn.memory.store.MemoryFilter.all()
                                                .withText("sunset"),
                                        dev.cairn.store.PageRequest.first(1))
                                .items()
                                .getFirst();
                String photo = photoMemory.id();
                // an adapter that sends every query (non-negative trigram counts) to the photo's
                // own vector: W q = p * sum(q)
                float[] p =
                        new TrigramEmbeddingModel(128)
                                .embedDocuments(List.of(photoMemory.content()))
                                .getFirst();
                float[] toPhoto = new float[128 * 128];
                for (int i = 0; i < 128; i++) {
                    java.util.Arrays.fill(toPhoto, i * 128, (i + 1) * 128, p[i]);
                }
                feedback.record(
                        ns,
                        List.of(
                                Judgment.draft(
                                        "Look at this",
                                        new Judgment.Target(Judgment.Kind.MEMORY, photo),
                                        1,
                                        Judgment.Source.EVALUATOR)));
                service.adaptations()
                        .add(
                                ns,
                                QueryAdapter.of(128, toPhoto),
                                3,
                                JudgedPrior.of(
                                        10,
                                        Map.of("Look at this", Map.of(photo, 1)),
                                        List.of("Look at this")),
                                LearnedFusion.NONE,
                                new TuneReport(
                                        1,
                                        1,
                                        1,
                                        0,
                                        0.5,
                                        0.6,
                                        true,
                                        3,
                                        0,
                                        1,
                                        HeldBackScore.NONE,
                                        HeldBackScore.NONE,
                                        0));
            }
            // the next evaluation is a new process over the same work dir
            try (MemoryService service = service(store)) {
                assertThat(service.adaptations().active(ns)).isPresent();

                LocomoEval.ModeResult again = hybridRun(store, service, conversations);

                assertThat(feedback.all(ns)).isEmpty();
                assertThat(service.adaptations().active(ns)).isEmpty();
                assertThat(again.recallAtK()).isEqualTo(first.recallAtK());
            }
        }
    }

    private static LocomoEval.ModeResult hybridRun(
            Store store, MemoryService service, List<Locomo.Conversation> conversations) {
        return new LocomoEval(store, service, x -> {})
                .run(conversations, List.of(1, 2, 3), List.of(RecallMode.HYBRID), 0.0)
                .modes()
                .getFirst();
    }

    @Test
    void inOneNamespaceEveryConversationIsRecalledOverAllOfThem() throws IOException {
        // the mini conversation twice, under two sample ids: the same dia_ids, other people
        String twice =
                miniAndThen(
                        mini ->
                                mini.replace("Ana", "Cleo")
                                        .replace("Ben", "Dev")
                                        .replace("Biscuit", "Pickle"));
        Path file = Files.writeString(temp.resolve("twice.json"), twice);
        try (Store store =
                        Store.embedded(
                                temp.resolve("data"), StoreConfig.defaults().withDimensions(128));
                MemoryService service = service(store)) {
            List<LocomoEval.QuestionResult> asked = new ArrayList<>();
            LocomoEval eval = new LocomoEval(store, service, x -> {}).inOneNamespace();
            LocomoEval.Result r =
                    eval.onQuestion(asked::add)
                            .run(
                                    Locomo.read(file),
                                    List.of(1, 8),
                                    List.of(RecallMode.LEXICAL),
                                    0.0);

            assertThat(store.namespace(LocomoEval.SHARED_NAMESPACE)).isPresent();
            assertThat(store.namespace("locomo-conv-1")).isEmpty();
            assertThat(r.turns()).isEqualTo(8);
            assertThat(r.memories()).isEqualTo(8);
            assertThat(r.questions()).isEqualTo(4);
            // evidence is told apart by its conversation, though the dia_ids are the same
            assertThat(asked.getFirst().evidence()).containsExactly("conv-1/D1:1");
            // conv-1's first question is asked over conv-2's turns too: its puppy matches as well
            assertThat(asked.getFirst().recalled().stream().flatMap(List::stream))
                    .contains("conv-1/D1:1", "conv-2/D1:1");
            assertThat(asked.get(2).evidence()).containsExactly("conv-2/D1:1");
            assertThat(asked.get(2).recalled().getFirst()).containsExactly("conv-2/D1:1");
            assertThat(r.modes().getFirst().recallAtK().get(8)).isEqualTo(1.0);

            // a second run over the same store reuses both imports
            LocomoEval.Result again =
                    new LocomoEval(store, service, x -> {})
                            .inOneNamespace()
                            .run(Locomo.read(file), List.of(8), List.of(RecallMode.LEXICAL), 0.0);
            assertThat(again.memories()).isEqualTo(8);
            assertThat(
                            service.list(
                                            LocomoEval.SHARED_NAMESPACE,
                                            dev.cairn.memory.store.MemoryFilter.all(),
                                            dev.cairn.store.PageRequest.first(100))
                                    .items())
                    .hasSize(8);
        }
    }
}
