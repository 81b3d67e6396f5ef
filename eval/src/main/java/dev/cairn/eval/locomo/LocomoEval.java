package dev.cairn.eval.locomo;

import dev.cairn.memory.MemorySource;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;
import dev.cairn.memory.ScoredMemory;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.memory.service.RecallMode;
import dev.cairn.memory.service.RecallRequest;
import dev.cairn.memory.service.RecallResult;
import dev.cairn.memory.service.WriteResult;
import dev.cairn.retrieval.feedback.FeedbackLog;
import dev.cairn.store.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Runs LoCoMo through a {@link MemoryService}: each conversation goes into its own namespace
 * ({@code locomo-<sample id>}), each turn becomes an EVENT memory with the speaker as userId, the
 * session as sessionName, the session date as createdAt and the dia_id as source reference; then
 * each question with at least one evidence id that names a turn is recalled (no scope filter, the
 * questions are about both speakers) in each mode. A turn merged into another memory by
 * de-duplication counts for that memory. Not thread-safe; one run at a time.
 *
 * <p>A memory holds its turn as {@code "<speaker>: <text>"} preceded by the turn before it in the
 * session ({@link #DEFAULT_CONTEXT_TURNS}), the way an agent would remember an exchange rather than
 * a bare reply: "yup, Oscar, my guinea pig" is found by the words of the question it answers ("do
 * you have any pets?"). It still counts only for its own turn's dia_id. On the two conversations
 * used for tuning (conv-26, conv-30) this raised hybrid evidence recall@10 from 0.706 to 0.769.
 */
public final class LocomoEval {

    /** Memories imported per turn never expire during an evaluation. */
    static final int IMPORT_TTL_DAYS = 3650;

    /** Quality and latency of one mode. */
    public record ModeResult(
            RecallMode mode,
            Map<Integer, Double> recallAtK,
            Map<Integer, Map<Integer, Double>> recallAtKByCategory,
            int questions,
            double p50Millis,
            double p95Millis) {
        public ModeResult {
            recallAtK = Map.copyOf(recallAtK);
            recallAtKByCategory = Map.copyOf(recallAtKByCategory);
        }
    }

    /** A whole run. */
    public record Result(
            int conversations,
            int turns,
            int memories,
            int questions,
            List<ModeResult> modes,
            double ingestSeconds) {
        public Result {
            modes = List.copyOf(modes);
        }
    }

    /**
     * How one question fared in one mode: its evidence and the dia_ids of the recalled memories,
     * best first (a merged memory lists all its turns), for reading the misses.
     */
    public record QuestionResult(
            String sampleId,
            RecallMode mode,
            int category,
            String question,
            List<String> evidence,
            List<List<String>> recalled) {
        public QuestionResult {
            evidence = List.copyOf(evidence);
            recalled = List.copyOf(recalled);
        }
    }

    /** Turns before each turn that its memory carries as context (see the class comment). */
    public static final int DEFAULT_CONTEXT_TURNS = 1;

    private final Store store;
    private final MemoryService service;
    private final int contextTurns;
    private final Consumer<String> progress;
    private Consumer<QuestionResult> questions = q -> {};
    private boolean oneNamespace;
    private QuestionTime time;

    public LocomoEval(Store store, MemoryService service, Consumer<String> progress) {
        this(store, service, DEFAULT_CONTEXT_TURNS, progress);
    }

    public LocomoEval(
            Store store, MemoryService service, int contextTurns, Consumer<String> progress) {
        if (contextTurns < 0) {
            throw new IllegalArgumentException(
                    "illegal contextTurns: " + contextTurns + ", must be >= 0");
        }
        this.store = Objects.requireNonNull(store, "store");
        this.service = Objects.requireNonNull(service, "service");
        this.contextTurns = contextTurns;
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /**
     * The memory of turn {@code i} of a session: up to {@code contextTurns} turns before it in the
     * same session, then the turn itself, one {@code "<speaker>: <text>"} line each.
     */
    static String content(List<Locomo.Turn> session, int i, int contextTurns) {
        StringJoiner lines = new StringJoiner("\n");
        for (int j = Math.max(0, i - contextTurns); j <= i; j++) {
            Locomo.Turn turn = session.get(j);
            lines.add(turn.speaker() + ": " + turn.text());
        }
        return lines.toString();
    }

    /** Hands every question's result to {@code listener} as it is measured. */
    public LocomoEval onQuestion(Consumer<QuestionResult> listener) {
        this.questions = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * Asks each conversation's questions at {@code time}, the memory service's clock: {@link
     * QuestionTime#AFTER_LAST_TURN} after the conversation's last turn (with {@link
     * #inOneNamespace()}, after the last turn of all of them), set before its turns are imported.
     * {@code cairn eval locomo} always does; without it the service's own clock stands.
     */
    public LocomoEval askingAt(QuestionTime time) {
        this.time = Objects.requireNonNull(time, "time");
        return this;
    }

    /**
     * Imports every conversation into one namespace ({@link #SHARED_NAMESPACE}) instead of one
     * each: each question is recalled over all of them, a test of recall at scale and among many
     * people. A turn's reference is then its sample id and dia_id ({@code conv-26/D1:3}).
     */
    public LocomoEval inOneNamespace() {
        this.oneNamespace = true;
        return this;
    }

    /** The namespace every conversation goes into with {@link #inOneNamespace()}. */
    public static final String SHARED_NAMESPACE = "locomo-all";

    public static String namespace(Locomo.Conversation c) {
        return ("locomo-" + c.sampleId()).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
    }

    private String namespaceOf(Locomo.Conversation c) {
        return oneNamespace ? SHARED_NAMESPACE : namespace(c);
    }

    /** A dia_id as this run refers to it: with the sample id when namespaces are shared. */
    private String reference(Locomo.Conversation c, String diaId) {
        return oneNamespace ? c.sampleId() + "/" + diaId : diaId;
    }

    /**
     * Imports every turn (unless the namespace already exists: then its judgments and recall
     * adaptations are cleared) and answers memoryId -> dia_ids.
     */
    public Map<String, Set<String>> load(Locomo.Conversation c) {
        if (time != null && !oneNamespace) {
            time.askAbout(List.of(c));
        }
        String ns = namespaceOf(c);
        Map<String, Set<String>> diaIds = new HashMap<>();
        if (store.namespace(ns).isPresent()) {
            // reuse an earlier import: the dia_id is the source reference
            String cursor = "";
            while (true) {
                var page =
                        service.list(
                                ns,
                                dev.cairn.memory.store.MemoryFilter.all().withIncludeDisabled(true),
                                new dev.cairn.store.PageRequest(1000, cursor));
                page.items()
                        .forEach(
                                m ->
                                        diaIds.computeIfAbsent(m.id(), k -> new HashSet<>())
                                                .addAll(
                                                        Arrays.asList(
                                                                m.source()
                                                                        .reference()
                                                                        .split(","))));
                if (!page.hasMore()) {
                    break;
                }
                cursor = page.nextCursor();
            }
            String mine = reference(c, "");
            boolean imported =
                    diaIds.values().stream()
                            .flatMap(Set::stream)
                            .anyMatch(r -> !oneNamespace || r.startsWith(mine));
            if (imported) {
                // an earlier --tune-share run in this work dir left judgments and perhaps an
                // active recall adaptation: every run recalls as a namespace nobody judged
                new FeedbackLog(store.sql()).clear(ns);
                service.adaptations().clear(ns);
                return diaIds;
            }
        } else {
            store.createNamespace(
                    ns, oneNamespace ? "LoCoMo, every conversation" : "LoCoMo " + c.sampleId());
        }
        Map<Integer, List<Locomo.Turn>> bySession = new TreeMap<>();
        c.turns()
                .forEach(
                        t -> bySession.computeIfAbsent(t.session(), k -> new ArrayList<>()).add(t));
        for (List<Locomo.Turn> session : bySession.values()) {
            List<NewMemory> drafts =
                    java.util.stream.IntStream.range(0, session.size())
                            .mapToObj(
                                    i -> {
                                        Locomo.Turn t = session.get(i);
                                        return NewMemory.of(
                                                        new Scope(
                                                                ns,
                                                                t.speaker(),
                                                                "",
                                                                reference(
                                                                        c,
                                                                        "session_" + t.session()),
                                                                "",
                                                                ""),
                                                        MemoryType.EVENT,
                                                        content(session, i, contextTurns))
                                                .withSource(
                                                        MemorySource.of(
                                                                MemorySource.Kind.CONVERSATION,
                                                                reference(c, t.diaId())))
                                                .withTtlDays(IMPORT_TTL_DAYS);
                                    })
                            .toList();
            // one write per turn, a second apart, as a runtime writes turns as they happen: the
            // session's turns keep their order
            List<WriteResult> written = new ArrayList<>();
            for (int i = 0; i < drafts.size(); i++) {
                written.addAll(
                        service.writeAll(
                                List.of(drafts.get(i)),
                                "locomo",
                                session.getFirst().at().plusSeconds(i)));
            }
            for (int i = 0; i < written.size(); i++) {
                diaIds.computeIfAbsent(written.get(i).memory().id(), k -> new HashSet<>())
                        .add(reference(c, session.get(i).diaId()));
            }
        }
        return diaIds;
    }

    /**
     * Loads each conversation and evaluates it in every mode at every k right away, reporting the
     * running totals after each conversation (so a long run that is stopped still has numbers).
     */
    public Result run(
            List<Locomo.Conversation> conversations,
            List<Integer> ks,
            List<RecallMode> modes,
            double threshold) {
        int maxK = ks.stream().mapToInt(Integer::intValue).max().orElse(25);
        double ingestSeconds = 0;
        int turns = 0;
        int memories = 0;
        Map<RecallMode, Map<Integer, Double>> sums = new LinkedHashMap<>();
        Map<RecallMode, Map<Integer, Map<Integer, double[]>>> byCat = new LinkedHashMap<>();
        Map<RecallMode, List<Double>> latencies = new LinkedHashMap<>();
        Map<RecallMode, Integer> counts = new LinkedHashMap<>();
        for (RecallMode mode : modes) {
            sums.put(mode, new TreeMap<>());
            byCat.put(mode, new TreeMap<>());
            latencies.put(mode, new ArrayList<>());
            counts.put(mode, 0);
        }
        Map<String, Set<String>> everyTurn = null;
        if (oneNamespace && !conversations.isEmpty()) {
            // every conversation is in before the first question: each is recalled over all
            if (time != null) {
                time.askAbout(conversations);
            }
            long t0 = System.nanoTime();
            conversations.forEach(this::load);
            everyTurn = load(conversations.getFirst()); // now only reads them back
            ingestSeconds += (System.nanoTime() - t0) / 1e9;
        }
        for (Locomo.Conversation c : conversations) {
            long t0 = System.nanoTime();
            Map<String, Set<String>> diaIds = everyTurn != null ? everyTurn : load(c);
            ingestSeconds += (System.nanoTime() - t0) / 1e9;
            turns += c.turns().size();
            String mine = reference(c, "");
            memories +=
                    (int)
                            diaIds.values().stream()
                                    .filter(r -> r.stream().anyMatch(x -> x.startsWith(mine)))
                                    .count();
            Set<String> known = new HashSet<>();
            diaIds.values().forEach(known::addAll);
            for (RecallMode mode : modes) {
                for (Locomo.Question q : c.questions()) {
                    List<String> evidence =
                            q.evidence().stream()
                                    .map(e -> reference(c, e))
                                    .filter(known::contains)
                                    .toList();
                    if (evidence.isEmpty()) {
                        continue;
                    }
                    RecallRequest request =
                            RecallRequest.of(namespaceOf(c), q.question())
                                    .withLimit(maxK)
                                    .withMode(mode)
                                    .withThreshold(threshold)
                                    .withTimeout(Duration.ofSeconds(30));
                    long start = System.nanoTime();
                    RecallResult r = service.recall(request);
                    latencies.get(mode).add((System.nanoTime() - start) / 1e6);
                    counts.merge(mode, 1, Integer::sum);
                    questions.accept(
                            new QuestionResult(
                                    c.sampleId(),
                                    mode,
                                    q.category(),
                                    q.question(),
                                    evidence,
                                    r.memories().stream()
                                            .map(
                                                    m ->
                                                            diaIds
                                                                    .getOrDefault(m.id(), Set.of())
                                                                    .stream()
                                                                    .sorted()
                                                                    .toList())
                                            .toList()));
                    for (int k : ks) {
                        Set<String> found = new HashSet<>();
                        for (ScoredMemory s : r.memories().stream().limit(k).toList()) {
                            found.addAll(diaIds.getOrDefault(s.id(), Set.of()));
                        }
                        double hit =
                                evidence.stream().filter(found::contains).count()
                                        / (double) evidence.size();
                        sums.get(mode).merge(k, hit, Double::sum);
                        double[] acc =
                                byCat.get(mode)
                                        .computeIfAbsent(q.category(), x -> new TreeMap<>())
                                        .computeIfAbsent(k, x -> new double[2]);
                        acc[0] += hit;
                        acc[1]++;
                    }
                }
            }
            StringBuilder line =
                    new StringBuilder(
                            "after " + c.sampleId() + " (" + c.turns().size() + " turns):");
            for (RecallMode mode : modes) {
                line.append(' ')
                        .append(mode)
                        .append(' ')
                        .append(recall(sums.get(mode), ks, counts.get(mode)));
            }
            progress.accept(line.toString());
        }
        List<ModeResult> results = new ArrayList<>();
        int questions = 0;
        for (RecallMode mode : modes) {
            int n = counts.get(mode);
            questions = n;
            Map<Integer, Map<Integer, Double>> cats = new TreeMap<>();
            byCat.get(mode)
                    .forEach(
                            (cat, m) -> {
                                Map<Integer, Double> v = new TreeMap<>();
                                m.forEach((k, acc) -> v.put(k, acc[0] / acc[1]));
                                cats.put(cat, v);
                            });
            List<Double> sorted = latencies.get(mode);
            sorted.sort(null);
            results.add(
                    new ModeResult(
                            mode,
                            recall(sums.get(mode), ks, n),
                            cats,
                            n,
                            percentile(sorted, 0.50),
                            percentile(sorted, 0.95)));
        }
        return new Result(conversations.size(), turns, memories, questions, results, ingestSeconds);
    }

    private static Map<Integer, Double> recall(Map<Integer, Double> sums, List<Integer> ks, int n) {
        Map<Integer, Double> recall = new LinkedHashMap<>();
        for (int k : ks) {
            recall.put(k, n == 0 ? 0.0 : sums.getOrDefault(k, 0.0) / n);
        }
        return recall;
    }

    static double percentile(List<Double> sorted, double p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int i = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }
}
