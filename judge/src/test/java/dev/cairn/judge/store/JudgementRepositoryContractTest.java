package dev.cairn.judge.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.judge.ClaimVerdict;
import dev.cairn.judge.Evidence;
import dev.cairn.judge.Judge;
import dev.cairn.judge.JudgeInput;
import dev.cairn.judge.Judgement;
import dev.cairn.judge.PolicyRegistry;
import dev.cairn.judge.RetrievalPlan;
import dev.cairn.judge.SecretDetector;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.store.ScatteredIds;
import dev.cairn.store.Store;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Persistence of judged answers, judgements and policy documents, run against each store. */
abstract class JudgementRepositoryContractTest {

    @TempDir Path dir;
    Store store;
    JudgementRepository judgements;
    PolicyRepository policies;
    String ns;
    String other;

    /** A fresh store for one test. */
    abstract Store openStore();

    @BeforeEach
    void open() {
        store = openStore();
        ns = "jd-" + UUID.randomUUID().toString().substring(0, 8);
        other = ns + "-other";
        store.createNamespace(ns, "test");
        store.createNamespace(other, "test");
        judgements = JudgementRepository.sql(store.sql());
        policies = PolicyRepository.sql(store.sql());
    }

    @AfterEach
    void close() {
        if (store != null) { // null when the backend skipped the test
            store.close();
        }
    }

    private static final List<Evidence> EVIDENCE =
            List.of(
                    new Evidence(
                            "c1",
                            "The rate limit is 100 requests per minute.",
                            "Limits",
                            Authority.AUTHORITATIVE),
                    Evidence.of("c2", "Retries back off exponentially."));

    private static Judgement judge(String answer) {
        return Judge.lexical(SecretDetector.none())
                .judge(JudgeInput.of("what is the limit?", answer, EVIDENCE));
    }

    @Test
    void savedJudgementReadsBackWithItsAnswerAndEvidence() {
        Judgement j = judge("The rate limit is 100 requests per minute [1].");
        AnswerTrace answer =
                new AnswerTrace(
                        "what is the limit?",
                        "The rate limit is 100 requests per minute [1].",
                        EVIDENCE,
                        "tr_123",
                        "default",
                        RetrievalPlan.DIRECT);

        StoredJudgement saved = judgements.save(ns, answer, j, "lexical-tfidf");
        StoredJudgement found = judgements.find(ns, saved.id()).orElseThrow();

        assertThat(found.judgement()).isEqualTo(j);
        assertThat(found.answer()).isEqualTo(answer);
        assertThat(found.similarity()).isEqualTo("lexical-tfidf");
        assertThat(found.createdAt()).isEqualTo(saved.createdAt());
        assertThat(found.answerId()).isEqualTo(saved.answerId());
        assertThat(found.judgement().claims())
                .extracting(ClaimVerdict::supported)
                .containsExactly(true);
    }

    @Test
    void judgementIsNotVisibleFromAnotherNamespace() {
        StoredJudgement saved =
                judgements.save(
                        ns,
                        new AnswerTrace(
                                "", "x [1].", EVIDENCE, "", "default", RetrievalPlan.UNKNOWN),
                        judge("x [1]."),
                        "lexical-tfidf");

        assertThat(judgements.find(other, saved.id())).isEmpty();
        assertThat(judgements.find(ns, "jdg_missing")).isEmpty();
    }

    @Test
    void savingIntoAMissingNamespaceFails() {
        assertThatThrownBy(
                        () ->
                                judgements.save(
                                        "no-such-ns",
                                        new AnswerTrace(
                                                "",
                                                "x",
                                                EVIDENCE,
                                                "",
                                                "default",
                                                RetrievalPlan.UNKNOWN),
                                        judge("x"),
                                        "lexical-tfidf"))
                .isInstanceOf(NoSuchElementException.class);
    }

    /** An answer judged against each trace of {@code traceIds}, in {@code namespace}. */
    private List<StoredJudgement> judgeAnswersOf(String namespace, List<String> traceIds) {
        Judgement j = judge("The rate limit is 100 requests per minute [1].");
        List<StoredJudgement> saved = new java.util.ArrayList<>();
        for (String traceId : traceIds) {
            AnswerTrace answer =
                    new AnswerTrace(
                            "what is the limit?",
                            "The rate limit is 100 requests per minute [1].",
                            EVIDENCE,
                            traceId,
                            "default",
                            RetrievalPlan.DIRECT);
            saved.add(judgements.save(namespace, answer, j, "lexical-tfidf"));
        }
        return saved;
    }

    @Test
    void erasingTheListedTracesAnswersRemovesThemWithTheirJudgementsInTheNamespaceOnly() {
        List<String> traces = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            traces.add(String.format("tr_%02d", i));
        }
        traces.add("tr_00"); // judged twice
        List<StoredJudgement> mine = judgeAnswersOf(ns, traces);
        List<StoredJudgement> theirs = judgeAnswersOf(other, List.of("tr_00", "tr_03", "tr_only"));
        List<String> erasedTraces = List.of("tr_00", "tr_03", "tr_06", "tr_09");
        List<String> listed = new java.util.ArrayList<>(erasedTraces);
        listed.add("tr_only");
        long seed = 20261129L;

        JudgementErasure.Erased erased =
                store.sql()
                        .write(
                                ns,
                                c ->
                                        JudgementErasure.erase(
                                                c,
                                                store.sql(),
                                                ns,
                                                ScatteredIds.among(listed, seed)));

        assertThat(erased).as("seed %d", seed).isEqualTo(new JudgementErasure.Erased(5, 5));
        for (StoredJudgement saved : mine) {
            assertThat(judgements.find(ns, saved.id()).isPresent())
                    .as(saved.answer().traceId())
                    .isEqualTo(!erasedTraces.contains(saved.answer().traceId()));
        }
        for (StoredJudgement saved : theirs) {
            assertThat(judgements.find(other, saved.id())).isPresent();
        }
    }

    @Test
    void deletingTheNamespaceDeletesItsJudgementsAndPolicies() {
        StoredJudgement saved =
                judgements.save(
                        ns,
                        new AnswerTrace("", "x", EVIDENCE, "", "default", RetrievalPlan.UNKNOWN),
                        judge("x"),
                        "lexical-tfidf");
        policies.put(ns, "strict", "rules: [{kind: no-secrets}]");

        store.deleteNamespace(ns);
        store.createNamespace(ns, "again");

        assertThat(judgements.find(ns, saved.id())).isEmpty();
        assertThat(policies.list(ns)).isEmpty();
    }

    @Test
    void registeredPolicyJoinsTheBuiltInDefaultInTheNamespaceRegistry() {
        boolean replaced =
                policies.put(
                        ns,
                        "tone",
                        "rules:\n  - {name: no-ai, kind: forbidden-phrases, phrases: [\"as an AI\"]}\n");

        assertThat(replaced).isFalse();
        assertThat(policies.registry(ns).names()).containsExactly("default", "tone");
        assertThat(policies.registry(other).names()).containsExactly(PolicyRegistry.DEFAULT_POLICY);
        assertThat(policies.find(ns, "tone").orElseThrow().document()).contains("as an AI");
    }

    @Test
    void registeringAgainReplacesTheDocument() {
        policies.put(ns, "tone", "{\"rules\": [{\"kind\": \"no-secrets\"}]}");

        boolean replaced = policies.put(ns, "tone", "rules: [{kind: max-length, max-chars: 10}]");

        assertThat(replaced).isTrue();
        assertThat(policies.list(ns)).hasSize(1);
        assertThat(policies.registry(ns).policy("tone").rules())
                .singleElement()
                .satisfies(r -> assertThat(r.name()).isEqualTo("max-length"));
    }

    @Test
    void malformedPolicyIsRejectedNamingTheProblem() {
        assertThatThrownBy(() -> policies.put(ns, "bad", "rules: [{kind: shout}]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shout");
        assertThatThrownBy(() -> policies.put(ns, "Bad Name", "rules: []"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Bad Name");
        assertThatThrownBy(() -> policies.put(ns, "a", "name: b\nrules: []"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'b'");
        assertThat(policies.list(ns)).isEmpty();
    }
}
