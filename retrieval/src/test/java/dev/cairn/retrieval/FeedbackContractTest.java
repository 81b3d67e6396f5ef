package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.FeedbackErasure;
import dev.cairn.retrieval.feedback.HeldBackScore;
import dev.cairn.retrieval.feedback.JudgedPrior;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.retrieval.feedback.LearnedFusion;
import dev.cairn.retrieval.feedback.QueryAdapter;
import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.retrieval.feedback.TuneReport;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import dev.cairn.retrieval.ingest.DocumentParser;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Relevance feedback and adaptations (V011) through {@link KnowledgeBase}, run against each store
 * backend: judgments recorded and paged back, training refused activation when it does not beat the
 * held-back ranking, an active adapter applied, traced and rolled back, and namespaces without one
 * ranked exactly as before.
 */
abstract class FeedbackContractTest {

    @TempDir Path indexRoot;
    Store store;
    KnowledgeBase kb;
    String ns;

    abstract Store openStore();

    /** Six runbooks on distinct topics, each the plain answer of its question below. */
    static final Map<String, String> RUNBOOKS =
            Map.of(
                    "ledger-promote", "Promote the ledger database replica with pg_ctl promote.",
                    "cache-flush", "Flush the redis session cache with FLUSHDB at low traffic.",
                    "cert-rotate", "Rotate the TLS certificates of the ingress before they expire.",
                    "disk-full", "Free disk space on a full node by pruning old container images.",
                    "dns-outage", "Fail DNS resolution over to the secondary resolvers.",
                    "queue-drain", "Drain the RabbitMQ queue by scaling the consumers up.");

    static final Map<String, String> QUESTIONS =
            Map.of(
                    "how do I promote the ledger database replica", "ledger-promote",
                    "flush the redis session cache", "cache-flush",
                    "rotate the ingress TLS certificates", "cert-rotate",
                    "a node's disk is full, free space", "disk-full",
                    "DNS resolution fails, use the secondary resolvers", "dns-outage",
                    "the RabbitMQ queue is backing up, drain it", "queue-drain");

    @BeforeEach
    void open() {
        store = openStore();
        ns = "fb-" + UUID.randomUUID().toString().substring(0, 8);
        store.createNamespace(ns, "test");
        kb =
                KnowledgeBase.open(
                        store,
                        TestModel.get(),
                        indexRoot.resolve("lucene"),
                        RetrievalConfig.defaults());
    }

    @AfterEach
    void close() {
        if (kb != null) {
            kb.close();
        }
        if (store != null) {
            store.close();
        }
    }

    void ingestRunbooks(String namespace) {
        RUNBOOKS.forEach(
                (id, text) ->
                        kb.ingest(
                                namespace,
                                DocumentParser.parseMarkdown(
                                        "---\nid: " + id + "\n---\n# " + id + "\n\n" + text,
                                        id + ".md")));
        kb.catchUp(); // every runbook in the lexical index before the first comparison
    }

    void judgeEveryQuestion() {
        List<Judgment> drafts = new ArrayList<>();
        QUESTIONS.forEach(
                (q, doc) ->
                        drafts.add(
                                Judgment.draft(
                                        q,
                                        new Judgment.Target(Judgment.Kind.DOCUMENT, doc),
                                        1,
                                        Judgment.Source.EVALUATOR)));
        kb.feedback().record(ns, drafts);
    }

    @Test
    void judgmentsAreRecordedAndReadBackNewestFirstInPages() throws InterruptedException {
        kb.feedback()
                .record(
                        ns,
                        List.of(
                                Judgment.draft(
                                        "first question",
                                        new Judgment.Target(Judgment.Kind.CHUNK, "doc-a#0"),
                                        2,
                                        Judgment.Source.JUDGE)));
        Thread.sleep(2); // ids are ordered by their millisecond
        kb.feedback()
                .record(
                        ns,
                        List.of(
                                Judgment.draft(
                                        "second question",
                                        new Judgment.Target(Judgment.Kind.MEMORY, "mem_1"),
                                        0,
                                        Judgment.Source.OPERATOR)));

        Page<Judgment> first = kb.feedback().page(ns, PageRequest.first(1));
        Page<Judgment> second = kb.feedback().page(ns, new PageRequest(1, first.nextCursor()));

        assertThat(first.total()).isEqualTo(2);
        assertThat(first.items()).extracting(Judgment::query).containsExactly("second question");
        assertThat(first.items().getFirst().target())
                .isEqualTo(new Judgment.Target(Judgment.Kind.MEMORY, "mem_1"));
        assertThat(first.items().getFirst().grade()).isZero();
        assertThat(second.items()).extracting(Judgment::query).containsExactly("first question");
        assertThat(second.items().getFirst().source()).isEqualTo(Judgment.Source.JUDGE);
        assertThat(second.items().getFirst().target().documentId()).contains("doc-a");
        assertThat(second.nextCursor()).isEmpty();
        assertThat(kb.feedback().all(ns))
                .extracting(Judgment::query)
                .containsExactly("first question", "second question");
    }

    @Test
    void erasingTheJudgmentsOfListedMemoriesRemovesOnlyThoseOfTheNamespace() {
        String other = ns + "-other";
        store.createNamespace(other, "test");
        List<Judgment> drafts = new ArrayList<>();
        List<String> memories = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String id = String.format("mem_%02d", i);
            memories.add(id);
            drafts.add(memoryJudgment(Judgment.Kind.MEMORY, id));
        }
        drafts.add(memoryJudgment(Judgment.Kind.MEMORY, "mem_00")); // judged twice
        drafts.add(memoryJudgment(Judgment.Kind.DOCUMENT, "mem_00")); // a document of that id
        kb.feedback().record(ns, drafts);
        kb.feedback().record(other, drafts);
        List<String> erased = new ArrayList<>();
        for (int i = 0; i < memories.size(); i += 3) {
            erased.add(memories.get(i));
        }
        List<String> listed = new ArrayList<>(erased);
        listed.add("mem_only_listed");
        long seed = 20261129L;

        long removed =
                store.sql()
                        .write(
                                ns,
                                c ->
                                        FeedbackErasure.eraseJudgmentsOfMemories(
                                                c,
                                                store.sql(),
                                                ns,
                                                dev.cairn.store.ScatteredIds.among(listed, seed)));

        assertThat(removed).as("seed %d", seed).isEqualTo(erased.size() + 1);
        List<Judgment.Target> left = new ArrayList<>();
        for (Judgment d : drafts) {
            boolean gone =
                    d.target().kind() == Judgment.Kind.MEMORY && erased.contains(d.target().id());
            if (!gone) {
                left.add(d.target());
            }
        }
        assertThat(kb.feedback().all(ns))
                .extracting(Judgment::target)
                .containsExactlyInAnyOrderElementsOf(left);
        assertThat(kb.feedback().all(other)).hasSize(drafts.size());
    }

    private static Judgment memoryJudgment(Judgment.Kind kind, String id) {
        return Judgment.draft(
                "what do I prefer", new Judgment.Target(kind, id), 2, Judgment.Source.OPERATOR);
    }

    @Test
    void judgmentsAreCheckedAndNeedANamespace() {
        assertThatThrownBy(
                        () ->
                                Judgment.draft(
                                        "q",
                                        new Judgment.Target(Judgment.Kind.DOCUMENT, "doc"),
                                        4,
                                        Judgment.Source.OPERATOR))
                .hasMessage("illegal grade: 4, must be in [0, 3]");
        assertThatThrownBy(() -> new Judgment.Target(Judgment.Kind.DOCUMENT, "a\u0000b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("illegal documentId:");
        assertThatThrownBy(() -> Judgment.Source.parse("qrels"))
                .hasMessage("unknown source: 'qrels', must be one of evaluator, judge, operator");
        assertThatThrownBy(() -> kb.feedback().record(ns, List.of()))
                .hasMessage("illegal number of judgments: 0, must be in [1, 1000]");
        assertThatThrownBy(
                        () ->
                                kb.feedback()
                                        .record(
                                                "fb-missing",
                                                List.of(
                                                        Judgment.draft(
                                                                "q",
                                                                new Judgment.Target(
                                                                        Judgment.Kind.DOCUMENT,
                                                                        "doc"),
                                                                1,
                                                                Judgment.Source.OPERATOR))))
                .isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void trainingNeedsJudgedQueriesToTrainOnAndHoldBack() {
        ingestRunbooks(ns);

        assertThatThrownBy(() -> kb.tune(ns, TuneOptions.DEFAULTS))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has 0 judged queries");
    }

    @Test
    void anAdapterThatDoesNotBeatTheHeldBackRankingIsNotActivatedAndChangesNothing() {
        ingestRunbooks(ns);
        List<RetrieveResult> before = retrieveEveryQuestion(ns);
        judgeEveryQuestion();

        Adaptation trained = kb.tune(ns, TuneOptions.DEFAULTS);

        // every held-back question already has its runbook first: nDCG@10 1.0 cannot be beaten
        assertThat(trained.report().baselineNdcg10()).isEqualTo(1.0);
        // six runbooks, each judged by one question: one runbook is held back with its question
        // (unseen), then one of the other five questions (its runbook judged by no training
        // question either, so also unseen)
        assertThat(trained.report().heldOutQueries()).isEqualTo(2);
        assertThat(trained.report().trainQueries()).isEqualTo(4);
        assertThat(trained.report().unseenDocuments().queries()).isEqualTo(2);
        assertThat(trained.report().seenDocuments()).isEqualTo(HeldBackScore.NONE);
        assertThat(trained.report().unseenDocuments().baselineNdcg10()).isEqualTo(1.0);
        assertThat(trained.report().activated()).isFalse();
        assertThat(trained.state()).isEqualTo(Adaptation.State.REJECTED);
        assertThat(kb.adaptations().active(ns)).isEmpty();
        // the four training questions taught a learned fusion, stored with the version
        assertThat(trained.fusion().active()).isTrue();
        assertThat(kb.adaptations().all(ns).getFirst().fusion()).isEqualTo(trained.fusion());
        assertThat(kb.tune(ns, TuneOptions.DEFAULTS.withLearnedFusion(false)).fusion())
                .isEqualTo(LearnedFusion.NONE);
        List<RetrieveResult> after = retrieveEveryQuestion(ns);
        for (int i = 0; i < before.size(); i++) {
            assertThat(after.get(i).adaptation().version()).isZero();
            assertThat(after.get(i).candidates())
                    .usingRecursiveFieldByFieldElementComparator()
                    .isEqualTo(before.get(i).candidates());
        }
    }

    @Test
    void anActiveAdapterIsAppliedTracedAndRolledBackWhileOtherNamespacesRankAsBefore() {
        String other = "fb-" + UUID.randomUUID().toString().substring(0, 8);
        store.createNamespace(other, "test");
        ingestRunbooks(ns);
        ingestRunbooks(other);
        List<RetrieveResult> otherBefore = retrieveEveryQuestion(other);
        int d = TestModel.get().dimensions();
        float[] flipped = new float[d * d]; // q -> -q: the dense ranking turns upside down
        for (int i = 0; i < d; i++) {
            flipped[i * d + i] = -1;
        }
        Adaptation first =
                kb.adaptations()
                        .add(
                                ns,
                                QueryAdapter.of(d, flipped),
                                1.0,
                                JudgedPrior.NONE,
                                LearnedFusion.NONE,
                                won(0, 1.0));
        Adaptation second =
                kb.adaptations()
                        .add(
                                ns,
                                QueryAdapter.identity(d),
                                2.0,
                                JudgedPrior.NONE,
                                LearnedFusion.NONE,
                                won(1, 2.0));

        RetrieveResult adapted =
                kb.retrieve(ns, RetrieveRequest.of("flush the redis session cache"));

        assertThat(second.replaces()).isEqualTo(first.version());
        assertThat(kb.adaptations().all(ns))
                .extracting(Adaptation::state)
                .containsExactly(Adaptation.State.ACTIVE, Adaptation.State.RETIRED);
        assertThat(adapted.adaptation().version()).isEqualTo(2);
        assertThat(kb.trace(ns, adapted.traceId()).orElseThrow().request())
                .containsEntry("adaptation", applied(2, 2.0, 0.0, false));
        // the dense weight doubled: the top hit, first in both signals, scores 1/61 + 2/61
        assertThat(adapted.hits().getFirst().score())
                .isCloseTo(3.0 / 61, org.assertj.core.data.Offset.offset(1e-9));
        List<RetrieveResult> otherAfter = retrieveEveryQuestion(other);
        for (int i = 0; i < otherBefore.size(); i++) {
            assertThat(otherAfter.get(i).adaptation().version()).isZero();
            assertThat(otherAfter.get(i).candidates())
                    .usingRecursiveFieldByFieldElementComparator()
                    .isEqualTo(otherBefore.get(i).candidates());
        }

        assertThat(kb.rollback(ns)).map(Adaptation::version).contains(1);
        RetrieveResult flippedResult =
                kb.retrieve(ns, RetrieveRequest.of("flush the redis session cache"));
        assertThat(flippedResult.adaptation().version()).isEqualTo(1);
        assertThat(
                        flippedResult.candidates().stream()
                                .filter(c -> c.documentId().equals("cache-flush"))
                                .findFirst()
                                .orElseThrow()
                                .ranks())
                .doesNotContainEntry(dev.cairn.retrieval.fusion.Signal.DENSE, 1);
        assertThat(kb.rollback(ns)).isEmpty();
        RetrieveResult plain = kb.retrieve(ns, RetrieveRequest.of("flush the redis session cache"));
        assertThat(plain.adaptation().version()).isZero();
        assertThat(kb.trace(ns, plain.traceId()).orElseThrow().request())
                .containsEntry("adaptation", Map.of("applied", false));
        assertThatThrownBy(() -> kb.rollback(ns))
                .isInstanceOf(NoSuchElementException.class)
                .hasMessage("namespace '" + ns + "' has no active adaptation");
    }

    @Test
    void anActivePriorRaisesItsDocumentsByItsBoundedBoostAndSaysSoInTheTrace() {
        // the same runbooks in a namespace without an adaptation give the scores before (a
        // retrieve in ns itself would keep its "no adaptation" for ActiveAdaptations.RECHECK)
        String plain = "fb-" + UUID.randomUUID().toString().substring(0, 8);
        store.createNamespace(plain, "test");
        ingestRunbooks(plain);
        ingestRunbooks(ns);
        String question = "rotate the ingress TLS certificates";
        RetrieveResult before = kb.retrieve(plain, RetrieveRequest.of(question));
        TraceCandidate runnerUp = before.candidates().get(1);
        int d = TestModel.get().dimensions();
        JudgedPrior prior = new JudgedPrior(1.0, Map.of(runnerUp.documentId(), 1));
        kb.adaptations()
                .add(
                        ns,
                        QueryAdapter.identity(
                                d), // the dense ranking as before: only the prior acts
                        1.0,
                        prior,
                        LearnedFusion.NONE,
                        won(0, 1.0));

        RetrieveResult after = kb.retrieve(ns, RetrieveRequest.of(question));

        TraceCandidate boosted =
                after.candidates().stream()
                        .filter(c -> c.chunkId().equals(runnerUp.chunkId()))
                        .findFirst()
                        .orElseThrow();
        // one judging query: half of an RRF first place, 0.5 / 61
        assertThat(boosted.fused())
                .isCloseTo(runnerUp.fused() + 0.5 / 61, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(boosted.ranks()).isEqualTo(runnerUp.ranks());
        assertThat(boosted.explanation())
                .contains(
                        "judged-relevant prior: +0.008197 (document "
                                + runnerUp.documentId()
                                + " judged relevant for 1 training queries, weight 1.00)");
        assertThat(after.adaptation().priorWeight()).isEqualTo(1.0);
        assertThat(kb.trace(ns, after.traceId()).orElseThrow().request())
                .containsEntry("adaptation", applied(1, 1.0, 1.0, false));
        for (TraceCandidate c : after.candidates()) {
            if (!c.chunkId().equals(runnerUp.chunkId())) {
                assertThat(c.explanation()).doesNotContain("judged-relevant prior");
            }
        }
    }

    @Test
    void anActiveLearnedFusionScoresTheTwoSignalsCandidatesByItsWeightsAndIsStoredWithItsVersion() {
        ingestRunbooks(ns);
        String question = "rotate the ingress TLS certificates";
        SignalWeights twoSignals = SignalWeights.of(1, 1, 0);
        int d = TestModel.get().dimensions();
        // all the weight on the cosine: the candidates rank as the dense signal scores them
        LearnedFusion byCosine = new LearnedFusion(new double[] {0, 0, 1, 0, 0});
        kb.adaptations()
                .add(ns, QueryAdapter.identity(d), 1.0, JudgedPrior.NONE, byCosine, won(0, 1.0));
        assertThat(kb.adaptations().active(ns).orElseThrow().fusion()).isEqualTo(byCosine);

        RetrieveResult learned =
                kb.retrieve(ns, RetrieveRequest.of(question).withWeights(twoSignals));

        assertThat(learned.adaptation().learnedFusion()).isTrue();
        double lowest =
                learned.candidates().stream()
                        .filter(c -> c.scores().containsKey(Signal.DENSE))
                        .mapToDouble(c -> c.scores().get(Signal.DENSE))
                        .min()
                        .orElseThrow();
        for (TraceCandidate c : learned.candidates()) {
            double expected =
                    c.scores()
                            .getOrDefault(Signal.DENSE, lowest - LearnedFusion.MISSING_COSINE_GAP);
            assertThat(c.fused()).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-9));
        }
        assertThat(learned.candidates())
                .extracting(TraceCandidate::fused)
                .isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(kb.trace(ns, learned.traceId()).orElseThrow().request().get("adaptation"))
                .isEqualTo(applied(1, 1.0, 0.0, true));

        // one signal asked: it ranks as asked, by the dense signal alone
        RetrieveResult denseOnly =
                kb.retrieve(
                        ns, RetrieveRequest.of(question).withWeights(SignalWeights.of(0, 1, 0)));
        assertThat(denseOnly.adaptation().learnedFusion()).isFalse();
        assertThat(denseOnly.candidates())
                .allSatisfy(c -> assertThat(c.ranks()).containsOnlyKeys(Signal.DENSE));

        // a request that names its fusion gets it: plain RRF, 1/61 for a first place
        RetrieveResult named =
                kb.retrieve(
                        ns,
                        RetrieveRequest.of(question)
                                .withWeights(twoSignals)
                                .withFusion(FusionStrategy.RRF));
        assertThat(named.adaptation().learnedFusion()).isFalse();
        for (TraceCandidate c : named.candidates()) {
            double rrf = c.ranks().values().stream().mapToDouble(r -> 1.0 / (60 + r)).sum();
            assertThat(c.fused()).isCloseTo(rrf, org.assertj.core.data.Offset.offset(1e-12));
        }
    }

    /** What a trace's request says of the adaptation its answer was ranked under. */
    static Map<String, Object> applied(
            int version, double denseWeight, double priorWeight, boolean learnedFusion) {
        return Map.of(
                "applied",
                true,
                "version",
                version,
                "denseWeight",
                denseWeight,
                "priorWeight",
                priorWeight,
                "learnedFusion",
                learnedFusion);
    }

    /** A report that activates its version (stored as if training had found it). */
    static TuneReport won(int baselineVersion, double denseWeight) {
        return new TuneReport(
                5,
                1,
                6,
                baselineVersion,
                0.5,
                0.6,
                true,
                denseWeight,
                0,
                1,
                HeldBackScore.NONE,
                HeldBackScore.NONE,
                0);
    }

    List<RetrieveResult> retrieveEveryQuestion(String namespace) {
        List<RetrieveResult> out = new ArrayList<>();
        for (String q : new java.util.TreeSet<>(QUESTIONS.keySet())) {
            out.add(kb.retrieve(namespace, RetrieveRequest.of(q)));
        }
        return out;
    }
}
