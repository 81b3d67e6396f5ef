package dev.cairn.judge.service;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.judge.ClaimVerdict;
import dev.cairn.judge.ContradictionSource;
import dev.cairn.judge.Evidence;
import dev.cairn.judge.Judge;
import dev.cairn.judge.JudgeConfig;
import dev.cairn.judge.JudgeInput;
import dev.cairn.judge.Judgement;
import dev.cairn.judge.PolicyRegistry;
import dev.cairn.judge.RetrievalPlan;
import dev.cairn.judge.SecretDetector;
import dev.cairn.judge.SimilarityFunction;
import dev.cairn.judge.store.AnswerTrace;
import dev.cairn.judge.store.JudgementRepository;
import dev.cairn.judge.store.PolicyRepository;
import dev.cairn.judge.store.StoredJudgement;
import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.StoredTrace;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.safety.SecretRedactor;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Judges answers in a namespace and keeps them: resolves the evidence (explicit, or a stored
 * trace's selected hits, ids = chunk ids, in rank order, the trace's plan feeding the defer rule),
 * loads the namespace's policies, asks the {@link ContradictionSource} for {@code contradicts}
 * relations, judges, and stores the answer (query and answer secret-redacted) with its judgement.
 * Against a trace, the hits that support a claim become relevance judgments for the trace's query;
 * with explicit evidence, the memories of the namespace among it that support a claim become memory
 * judgments for the request's query. Thread-safe when its similarity function is.
 */
public final class JudgeService {

    private static final System.Logger LOG = System.getLogger(JudgeService.class.getName());

    private final KnowledgeBase knowledge;
    private final JudgeConfig config;
    private final SimilarityFunction similarity;
    private final SecretDetector secrets;
    private final ContradictionSource contradictions;
    private final JudgementRepository judgements;
    private final PolicyRepository policies;
    private final MemoryRepository memories;

    private JudgeService(
            KnowledgeBase knowledge,
            JudgeConfig config,
            SimilarityFunction similarity,
            SecretDetector secrets,
            ContradictionSource contradictions) {
        this.knowledge = Objects.requireNonNull(knowledge, "knowledge");
        this.config = Objects.requireNonNull(config, "config");
        this.similarity = Objects.requireNonNull(similarity, "similarity");
        this.secrets = Objects.requireNonNull(secrets, "secrets");
        this.contradictions = Objects.requireNonNull(contradictions, "contradictions");
        this.judgements = JudgementRepository.sql(knowledge.store().sql());
        this.policies = PolicyRepository.sql(knowledge.store().sql());
        this.memories = MemoryRepository.over(knowledge.store());
    }

    /**
     * A service over the knowledge base's store and traces.
     *
     * @param contradictions where {@code contradicts} relations come from (the server reads the
     *     entity graph; {@link ContradictionSource#none()} for none)
     */
    public static JudgeService create(
            KnowledgeBase knowledge,
            JudgeConfig config,
            SimilarityFunction similarity,
            SecretDetector secrets,
            ContradictionSource contradictions) {
        return new JudgeService(knowledge, config, similarity, secrets, contradictions);
    }

    /**
     * The server's judge: BERT cosine over {@code model} with the thresholds calibrated for it on
     * SciFact ({@link #CALIBRATED_CONFIG}), memory's secret detectors.
     */
    public static JudgeService calibrated(
            KnowledgeBase knowledge, EmbeddingModel model, ContradictionSource contradictions) {
        return create(
                knowledge,
                CALIBRATED_CONFIG,
                SimilarityFunction.embedding(model),
                SecretDetector.standard(),
                contradictions);
    }

    /**
     * Thresholds calibrated on SciFact train for the BERT similarity (bge-small-en-v1.5), per
     * verdict: similarity weight 0.7, support threshold 0.65, contradiction threshold 0.25 (with
     * context threshold 0.4), alignment margin 1 (any sentence; narrower margins did not help),
     * every contradiction cue. Chosen by a coordinate search on the tune half of the claims (by
     * cited abstract id parity, 411 claims): macro-F1 0.656 there, 0.583 on the report half (398
     * claims); docs/judge.md has the split, the ablations and the command.
     */
    public static final JudgeConfig CALIBRATED_CONFIG =
            JudgeConfig.defaults()
                    .withSimilarityWeight(0.7)
                    .withSupportThreshold(0.65)
                    .withContradictionThreshold(0.25)
                    .withContextThreshold(0.4)
                    .withAlignmentMargin(1.0);

    /**
     * Judges and stores one answer.
     *
     * @throws NoSuchElementException when the namespace or the trace does not exist
     * @throws dev.cairn.judge.PayloadTooLargeException when the answer is over the limit
     * @throws IllegalArgumentException when the policy is unknown (naming the known ones)
     */
    public StoredJudgement judge(String namespace, JudgeRequest request) {
        List<Evidence> evidence = request.evidence();
        RetrievalPlan plan = RetrievalPlan.UNKNOWN;
        StoredTrace trace = null;
        if (!request.traceId().isBlank()) {
            trace =
                    knowledge
                            .trace(namespace, request.traceId())
                            .orElseThrow(
                                    () ->
                                            new NoSuchElementException(
                                                    "trace '"
                                                            + request.traceId()
                                                            + "' does not exist"));
            evidence = evidence(trace);
            plan = RetrievalPlan.parse(trace.plan().wireName());
        }
        String policy =
                request.policy().isBlank() ? PolicyRegistry.DEFAULT_POLICY : request.policy();
        PolicyRegistry registry = policies.registry(namespace);
        Judge judge = Judge.create(config, similarity, registry, secrets);
        JudgeInput input =
                new JudgeInput(
                        request.query(),
                        request.answer(),
                        evidence,
                        policy,
                        plan,
                        contradictions.relations(namespace, evidence));
        SecretRedactor redactor = SecretRedactor.standard();
        Judgement judgement = redacted(judge.judge(input), redactor);
        AnswerTrace answer =
                new AnswerTrace(
                        redactor.redact(request.query()).text(),
                        redactor.redact(request.answer()).text(),
                        evidence,
                        request.traceId(),
                        policy,
                        plan);
        StoredJudgement stored = judgements.save(namespace, answer, judgement, similarity.name());
        if (trace != null) {
            StoredTrace t = trace;
            recordSupportAsFeedback(
                    namespace,
                    t.query(),
                    judgement,
                    chunkId -> Optional.of(new Judgment.Target(Judgment.Kind.CHUNK, chunkId)),
                    "trace " + t.traceId());
        } else if (!request.query().isBlank()) {
            recordSupportAsFeedback(
                    namespace,
                    request.query(),
                    judgement,
                    id ->
                            memories.find(namespace, id)
                                    .filter(m -> !m.deleted())
                                    .map(m -> new Judgment.Target(Judgment.Kind.MEMORY, m.id())),
                    "its evidence");
        }
        LOG.log(
                Level.DEBUG,
                "judged answer {0} in {1}: {2} claims, grounded {3}",
                stored.id(),
                namespace,
                judgement.claims().size(),
                judgement.grounded());
        return stored;
    }

    /**
     * Records, for the query, each piece of evidence that supports a claim as relevant (grade 1,
     * source {@code judge}): the judgments a namespace's adaptations learn from (see {@code cairn
     * tune}). Against a trace the evidence is its hits (chunks, retrieve's adaptation); given
     * explicitly, the evidence whose id is one of the namespace's memories (an agent judging its
     * answer against what recall gave it; recall's adaptation), other evidence being no record of
     * the namespace. Only support counts: evidence nobody cited, or that contradicts a claim, may
     * still be relevant to the query. Recorded after the judgement, which stands on its own; a
     * failure here is logged, not the caller's error.
     *
     * @param target what a supporting evidence id is as a judgment's target, empty when nothing
     */
    private void recordSupportAsFeedback(
            String namespace,
            String query,
            Judgement judgement,
            Function<String, Optional<Judgment.Target>> target,
            String against) {
        Set<String> supporting = new LinkedHashSet<>();
        judgement.claims().forEach(c -> supporting.addAll(c.supportedBy()));
        List<Judgment> drafts = new ArrayList<>();
        try {
            for (String id : supporting) {
                target.apply(id)
                        .ifPresent(
                                t ->
                                        drafts.add(
                                                Judgment.draft(
                                                        query, t, 1, Judgment.Source.JUDGE)));
            }
            if (!drafts.isEmpty()) {
                knowledge.feedback().record(namespace, drafts);
            }
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "judged answer in {0} against {1}: its {2} supporting pieces of evidence"
                            + " were not recorded as feedback: {3}",
                    namespace,
                    against,
                    supporting.size(),
                    e.toString());
        }
    }

    /** A stored judgement of this namespace; empty when there is none (or it is another's). */
    public Optional<StoredJudgement> judgement(String namespace, String id) {
        return judgements.find(namespace, id);
    }

    /** The registered policy documents. */
    public PolicyRepository policies() {
        return policies;
    }

    /** Name of the similarity function in use. */
    public String similarityName() {
        return similarity.name();
    }

    /** The judgement with secrets in claim texts and reasons replaced by their markers. */
    private static Judgement redacted(Judgement j, SecretRedactor redactor) {
        List<ClaimVerdict> claims = new ArrayList<>();
        for (ClaimVerdict c : j.claims()) {
            claims.add(
                    new ClaimVerdict(
                            redactor.redact(c.text()).text(),
                            c.citations(),
                            c.supported(),
                            c.contradicted(),
                            c.supportedBy(),
                            c.contradictedBy(),
                            c.reasons().stream().map(r -> redactor.redact(r).text()).toList()));
        }
        return new Judgement(
                j.citationCoverage(),
                j.citationPrecision(),
                j.contradictionRate(),
                j.policyCompliance(),
                j.grounded(),
                j.policy(),
                claims,
                j.rules(),
                j.violations());
    }

    private static List<Evidence> evidence(StoredTrace trace) {
        List<Evidence> out = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (StoredTrace.Entry e : trace.selected()) {
            if (seen.add(e.chunkId())) {
                out.add(new Evidence(e.chunkId(), e.text(), e.title(), e.authority()));
            }
        }
        return out;
    }
}
