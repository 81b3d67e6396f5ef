package dev.cairn.eval.locomo;

import dev.cairn.memory.ScoredMemory;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.memory.service.RecallMode;
import dev.cairn.memory.service.RecallRequest;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.FeedbackLog;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.store.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Whether recall learns from judgments on memories in a way that carries to questions nobody judged
 * (issue 42). Per conversation, a seeded share of its questions is <em>judged</em>: each one's
 * evidence turns are recorded as relevant memories ({@code POST feedback} with a {@code memoryId},
 * source evaluator), and recall's adaptation is trained from them ({@link MemoryService#tune},
 * which holds back a fifth of them itself and activates the version only if it wins there). The
 * other questions are <em>scored</em>, before and after, by evidence recall@k, over all of them and
 * apart for <em>seen</em> questions (one of their evidence memories was judged relevant for a
 * judged question) and <em>unseen</em> ones (none was). Each run starts the namespace without
 * feedback and without recall adaptations.
 */
public final class LocomoTuning {

    /** Evidence recall@k of a group of scored questions before and after tuning. */
    public record Group(int questions, Map<Integer, Double> before, Map<Integer, Double> after) {
        public Group {
            before = Map.copyOf(before);
            after = Map.copyOf(after);
        }
    }

    /**
     * A whole run.
     *
     * @param judged questions whose evidence was recorded as judgments
     * @param trained conversations where a version was trained (enough judged questions)
     * @param activated conversations where the trained version was activated
     */
    public record Result(
            int conversations,
            int judged,
            int trained,
            int activated,
            Group all,
            Group seen,
            Group unseen) {}

    private final LocomoEval eval;
    private final Store store;
    private final MemoryService service;
    private final Consumer<String> progress;

    public LocomoTuning(
            LocomoEval eval, Store store, MemoryService service, Consumer<String> progress) {
        this.eval = Objects.requireNonNull(eval, "eval");
        this.store = Objects.requireNonNull(store, "store");
        this.service = Objects.requireNonNull(service, "service");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /**
     * Runs every conversation: {@code share} of its questions judged (by a hash of the question
     * seeded with {@code seed}), the rest scored in hybrid mode at each of {@code ks}.
     */
    public Result run(
            List<Locomo.Conversation> conversations,
            double share,
            long seed,
            List<Integer> ks,
            double threshold,
            TuneOptions options) {
        if (!(share > 0 && share < 1)) {
            throw new IllegalArgumentException("illegal share: " + share + ", must be in (0, 1)");
        }
        int maxK = ks.stream().mapToInt(Integer::intValue).max().orElse(10);
        FeedbackLog feedback = new FeedbackLog(store.sql());
        Sums all = new Sums();
        Sums seen = new Sums();
        Sums unseen = new Sums();
        int judgedCount = 0;
        int trained = 0;
        int activated = 0;
        for (Locomo.Conversation c : conversations) {
            String ns = LocomoEval.namespace(c);
            Map<String, Set<String>> diaIds = eval.load(c);
            Map<String, List<String>> memoriesOf = new HashMap<>(); // dia_id -> memory ids
            diaIds.forEach(
                    (memory, refs) ->
                            refs.forEach(
                                    r ->
                                            memoriesOf
                                                    .computeIfAbsent(r, x -> new ArrayList<>())
                                                    .add(memory)));
            // load started the namespace without feedback and recall adaptations
            List<Locomo.Question> judged = new ArrayList<>();
            List<Locomo.Question> scored = new ArrayList<>();
            for (Locomo.Question q : c.questions()) {
                if (q.evidence().stream().noneMatch(memoriesOf::containsKey)) {
                    continue;
                }
                (new Random(seed * 31 + q.question().hashCode()).nextDouble() < share
                                ? judged
                                : scored)
                        .add(q);
            }
            Set<String> judgedMemories = new HashSet<>();
            List<Judgment> drafts = new ArrayList<>();
            for (Locomo.Question q : judged) {
                for (String e : q.evidence()) {
                    for (String memory : memoriesOf.getOrDefault(e, List.of())) {
                        judgedMemories.add(memory);
                        drafts.add(
                                Judgment.draft(
                                        q.question(),
                                        new Judgment.Target(Judgment.Kind.MEMORY, memory),
                                        1,
                                        Judgment.Source.EVALUATOR));
                    }
                }
            }
            for (int from = 0; from < drafts.size(); from += FeedbackLog.MAX_PER_CALL) {
                feedback.record(
                        ns,
                        drafts.subList(
                                from, Math.min(drafts.size(), from + FeedbackLog.MAX_PER_CALL)));
            }
            judgedCount += judged.size();
            Map<Locomo.Question, Map<Integer, Double>> before = new LinkedHashMap<>();
            for (Locomo.Question q : scored) {
                before.put(q, recall(ns, q, memoriesOf, ks, maxK, threshold));
            }
            String state = "not trained (too few judged questions)";
            try {
                Adaptation a = service.tune(ns, options);
                trained++;
                state = a.state().wireName();
                if (a.state() == Adaptation.State.ACTIVE) {
                    activated++;
                }
            } catch (IllegalStateException e) {
                // too few judged questions to train and hold back: recall stays as it was
            }
            for (Locomo.Question q : scored) {
                Map<Integer, Double> after = recall(ns, q, memoriesOf, ks, maxK, threshold);
                boolean isSeen =
                        q.evidence().stream()
                                .flatMap(e -> memoriesOf.getOrDefault(e, List.of()).stream())
                                .anyMatch(judgedMemories::contains);
                all.add(before.get(q), after);
                (isSeen ? seen : unseen).add(before.get(q), after);
            }
            progress.accept(
                    c.sampleId()
                            + ": "
                            + judged.size()
                            + " judged, "
                            + scored.size()
                            + " scored; adaptation "
                            + state);
        }
        return new Result(
                conversations.size(),
                judgedCount,
                trained,
                activated,
                all.group(),
                seen.group(),
                unseen.group());
    }

    /** The question's evidence recall at each k. */
    private Map<Integer, Double> recall(
            String ns,
            Locomo.Question q,
            Map<String, List<String>> memoriesOf,
            List<Integer> ks,
            int maxK,
            double threshold) {
        List<String> evidence =
                q.evidence().stream().filter(memoriesOf::containsKey).distinct().toList();
        List<String> ranked =
                service
                        .recall(
                                RecallRequest.of(ns, q.question())
                                        .withLimit(maxK)
                                        .withMode(RecallMode.HYBRID)
                                        .withThreshold(threshold)
                                        .withTimeout(Duration.ofSeconds(30)))
                        .memories()
                        .stream()
                        .map(ScoredMemory::id)
                        .toList();
        Map<Integer, Double> out = new TreeMap<>();
        for (int k : ks) {
            Set<String> top = new HashSet<>(ranked.subList(0, Math.min(k, ranked.size())));
            long found =
                    evidence.stream()
                            .filter(e -> memoriesOf.get(e).stream().anyMatch(top::contains))
                            .count();
            out.put(k, found / (double) evidence.size());
        }
        return out;
    }

    /** Running sums of a group's per-question recall before and after. */
    private static final class Sums {
        private final Map<Integer, Double> before = new TreeMap<>();
        private final Map<Integer, Double> after = new TreeMap<>();
        private int n;

        void add(Map<Integer, Double> b, Map<Integer, Double> a) {
            b.forEach((k, v) -> before.merge(k, v, Double::sum));
            a.forEach((k, v) -> after.merge(k, v, Double::sum));
            n++;
        }

        Group group() {
            Map<Integer, Double> b = new TreeMap<>();
            Map<Integer, Double> a = new TreeMap<>();
            before.forEach((k, v) -> b.put(k, v / n));
            after.forEach((k, v) -> a.put(k, v / n));
            return new Group(n, b, a);
        }
    }
}
