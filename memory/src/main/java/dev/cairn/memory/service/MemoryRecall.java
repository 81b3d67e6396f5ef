package dev.cairn.memory.service;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.memory.AssembledContext;
import dev.cairn.memory.ContextAssembler;
import dev.cairn.memory.Facet;
import dev.cairn.memory.Memory;
import dev.cairn.memory.PersonNames;
import dev.cairn.memory.QueryPeriod;
import dev.cairn.memory.QuestionWords;
import dev.cairn.memory.RecallBoost;
import dev.cairn.memory.RecallScorer;
import dev.cairn.memory.RecallScorer.Candidate;
import dev.cairn.memory.ScoredMemory;
import dev.cairn.memory.SpeakerQuery;
import dev.cairn.memory.TextNormalizer;
import dev.cairn.memory.TimeMentions;
import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.retrieval.dense.UnitVectors;
import dev.cairn.retrieval.feedback.ActiveAdaptations;
import dev.cairn.retrieval.feedback.AppliedAdaptation;
import dev.cairn.retrieval.feedback.JudgedPrior;
import dev.cairn.retrieval.feedback.QueryAdapter;
import dev.cairn.retrieval.fusion.FusedCandidate;
import dev.cairn.retrieval.fusion.Fusion;
import dev.cairn.retrieval.fusion.Normalization;
import dev.cairn.retrieval.fusion.ScoredId;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import dev.cairn.retrieval.lexical.LexicalHit;
import dev.cairn.retrieval.search.HybridSearch;
import dev.cairn.retrieval.search.Ranking;
import dev.cairn.retrieval.search.SignalRun;
import dev.cairn.retrieval.search.SignalTask;
import dev.cairn.store.Namespace;
import dev.cairn.store.vector.NearestVectors;
import dev.cairn.store.vector.VectorHit;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The recall side of {@link DefaultMemoryService}, on the one hybrid search core ({@link
 * HybridSearch}): BM25 candidates and the exact cosine scan's candidates, within the request's
 * scope, run concurrently under the request's deadline; the dense signal also scores the BM25
 * candidates it did not keep. Relevance is their convex mix ({@link Normalization#MAX_SCALED}):
 * {@code (w_d * max(0, cos) + w_l * bm25 / max bm25) / (w_d + w_l)}, the lexical or dense part
 * alone in those modes, BM25 alone when the query could not be embedded in time. With a query
 * vector, a candidate below the cosine threshold is dropped unless its content holds the query
 * verbatim. A memory written in the calendar period the query names ({@link QueryPeriod}) is {@link
 * MemoryServiceConfig.Boosts#periodBonus()} more relevant, and when the query asks when, a memory
 * that says when ({@link TimeMentions}) {@link MemoryServiceConfig.Boosts#timeBonus()} more; each
 * found conversation turn gets {@link MemoryServiceConfig.Boosts#sessionShare()} of the best
 * relevance among its session's found turns on top of its own, then the other speaker's found reply
 * to a found turn that ends asking {@link MemoryServiceConfig.Boosts#answerShare()} of that turn's
 * relevance, and the found brief turns of a burst around one of the most relevant brief turns its
 * relevance ({@link MemoryServiceConfig.BriefTurns#bursts()}); then a memory of a person the query
 * names by any of their names ({@link PersonNames}) is {@link
 * MemoryServiceConfig.Boosts#speakerBonus()} more relevant ({@link
 * MemoryServiceConfig.Boosts#listSpeakerBonus()} when the query asks for several things, {@link
 * SpeakerQuery}); last, for such a query, a memory that tells of a facet it asks for ({@link
 * Facet}) is {@link MemoryServiceConfig.Boosts#facetBonus()} more, and a conversation turn of few
 * words less ({@link MemoryServiceConfig.BriefTurns}). None of these caps at 1: when the largest
 * relevance is above 1, every relevance is divided by it, which keeps their order. BM25 searches
 * the memories' informal-spelling copies ({@link dev.cairn.memory.InformalText}) for the query
 * without its question words ({@link QuestionWords}, unless {@link
 * MemoryServiceConfig.Recall#dropQuestionWords()} is off) and without the words that named a person
 * (their memories get the bonus; in BM25 the name matches the turns that call them). {@link
 * RecallScorer} adds recency, type and confidence on top.
 *
 * <p>Thread-safe. Owns the executors the signals and the recall bookkeeping run on.
 */
final class MemoryRecall implements AutoCloseable {

    /**
     * Memories from which recall's exact dense scan is split across the common pool's workers:
     * below this a split costs more than it saves.
     */
    static final int PARALLEL_SCAN_MIN_ENTRIES = 2_000;

    /**
     * Recall's exact dense scan when it is the only recall running: on both cores for large tables
     * (its own query's forward pass is done by then).
     */
    private static final NearestVectors SCAN_ALONE =
            UnitVectors.scan().parallelFrom(PARALLEL_SCAN_MIN_ENTRIES);

    /**
     * Recall's exact dense scan beside other recalls: on this thread. Their forward passes and
     * scans keep both cores busy, so a split saves no time and costs a third to a half more CPU
     * (waking and merging the fork-join workers), which concurrent requests pay in throughput.
     */
    private static final NearestVectors SCAN_BESIDE_OTHERS = UnitVectors.scan();

    private static final Fusion MIX = Fusion.convex(Normalization.MAX_SCALED);

    /** One signal alone: weight 1, so its normalised score is the relevance exactly. */
    private static final SignalWeights LEXICAL_ONLY = SignalWeights.of(1, 0, 0);

    private static final SignalWeights DENSE_ONLY = SignalWeights.of(0, 1, 0);

    private final MemoryRepository repository;
    private final EmbeddingModel model;
    private final MemoryServiceConfig config;
    private final Clock clock;
    private final RecallScorer scorer;
    private final ContextAssembler assembler;
    private final MemoryIndexes indexes;
    private final MemoryStats stats;
    private final SignalWeights hybrid;
    private final ExecutorService searchers =
            Executors.newThreadPerTaskExecutor(
                    Thread.ofVirtual().name("cairn-memory-recall-", 0).factory());
    private final HybridSearch search = HybridSearch.on(searchers);
    private final RecallRecorder recorder;

    /** Recalls started and not yet answered, this one included while it runs. */
    private final AtomicInteger inFlight = new AtomicInteger();

    MemoryRecall(
            MemoryRepository repository,
            EmbeddingModel model,
            MemoryServiceConfig config,
            Clock clock,
            RecallScorer scorer,
            ContextAssembler assembler,
            MemoryIndexes indexes,
            MemoryStats stats) {
        this.repository = repository;
        this.model = model;
        this.config = config;
        this.clock = clock;
        this.scorer = scorer;
        this.assembler = assembler;
        this.indexes = indexes;
        this.stats = stats;
        this.recorder = new RecallRecorder(repository, indexes);
        this.hybrid =
                SignalWeights.of(config.recall().lexicalWeight(), config.recall().denseWeight(), 0);
    }

    /**
     * How a recall applies a namespace's adaptation ({@link MemoryAdaptations}): the query vector
     * through its adapter, the dense weight times its factor, its judged-relevant prior.
     *
     * @param adapter null when none is active
     * @param vector the query vector already adapted, or null for recall to embed and adapt it
     * @param denseWeight the factor on the hybrid mix's dense weight
     * @param prior the judged-relevant prior ({@link JudgedPrior#NONE} when none)
     * @param version the active version, 0 when none
     */
    record Adapting(
            QueryAdapter adapter,
            float[] vector,
            double denseWeight,
            JudgedPrior prior,
            int version) {

        /** No adaptation: recall as it is without judgments. */
        static final Adapting NONE = new Adapting(null, null, 1, JudgedPrior.NONE, 0);

        static Adapting of(ActiveAdaptations.Active active) {
            return active.version() == 0
                    ? NONE
                    : new Adapting(
                            active.adapter(),
                            null,
                            active.denseWeight(),
                            active.prior(),
                            active.version());
        }

        AppliedAdaptation applied() {
            return AppliedAdaptation.of(version, denseWeight, prior, false);
        }
    }

    /** Recalls from a namespace that exists, under its adaptation. */
    RecallResult recall(RecallRequest request, Adapting adapting) {
        return recall(request, adapting, config.recall().recordRecalls());
    }

    /**
     * As {@link #recall(RecallRequest, Adapting)}, recording what was recalled only when {@code
     * record} (a tuning run's rankings are no recalls of the namespace's users).
     */
    RecallResult recall(RecallRequest request, Adapting adapting, boolean record) {
        inFlight.incrementAndGet();
        try {
            return recallCounted(request, adapting, record);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /**
     * The exact scan for a recall while {@code recalls} recalls (itself included) are running:
     * split across the cores only when it runs alone.
     */
    static NearestVectors scanFor(int recalls) {
        return recalls <= 1 ? SCAN_ALONE : SCAN_BESIDE_OTHERS;
    }

    private RecallResult recallCounted(RecallRequest request, Adapting adapting, boolean record) {
        long started = System.nanoTime();
        String ns = request.namespace();
        stats.recalls.incrementAndGet();
        Map<String, MemoryIndexes.Entry> table = indexes.table(ns);
        Predicate<Memory> eligible = eligibility(request);
        SpeakerQuery speakers = SpeakerQuery.of(request.query());
        Set<Facet> facets =
                config.boosts().facetBonus() > 0 && speakers.asksForSeveral()
                        ? Facet.asked(request.query())
                        : Set.of();
        double speakerBonus =
                speakers.asksForSeveral()
                        ? config.boosts().listSpeakerBonus()
                        : config.boosts().speakerBonus();
        List<PersonNames.NamedPerson> named =
                speakerBonus > 0 ? indexes.people(ns).named(request.query()) : List.of();
        Map<Signal, SignalTask> tasks = new EnumMap<>(Signal.class);
        if (request.mode() != RecallMode.DENSE) {
            tasks.put(Signal.LEXICAL, () -> lexical(request, table, eligible, named));
        }
        if (request.mode() != RecallMode.LEXICAL) {
            tasks.put(
                    Signal.DENSE,
                    () -> dense(request.query(), adapting, table, indexes.windowed(ns), eligible));
        }
        SignalWeights weights =
                switch (request.mode()) {
                    case LEXICAL -> LEXICAL_ONLY;
                    case DENSE -> DENSE_ONLY;
                    case HYBRID ->
                            adapting.denseWeight() == 1
                                    ? hybrid
                                    : hybrid.scaled(Signal.DENSE, adapting.denseWeight());
                };
        SignalRun run =
                search.run(
                                tasks,
                                weights,
                                Map.of(
                                        Signal.LEXICAL, request.timeout(),
                                        Signal.DENSE, request.timeout()),
                                started)
                        .completed();
        run.failures()
                .values()
                .forEach(
                        cause -> {
                            if (cause instanceof RuntimeException r) {
                                throw r;
                            }
                            throw new IllegalStateException("recall search failed", cause);
                        });
        boolean partial = run.timedOut(Signal.LEXICAL) || run.timedOut(Signal.DENSE);
        Map<Signal, List<ScoredId>> rankings = run.rankings();
        if (tasks.containsKey(Signal.LEXICAL)) {
            // a late BM25 answered nothing: the dense part keeps its share of the mix
            rankings.putIfAbsent(Signal.LEXICAL, List.of());
        }
        boolean embedded = rankings.containsKey(Signal.DENSE);
        if (!embedded) {
            weights = LEXICAL_ONLY;
        }
        // raw cosines from the completed dense ranking: the threshold holds whatever the weights
        Map<String, Double> cosine = new HashMap<>();
        rankings.getOrDefault(Signal.DENSE, List.of()).forEach(x -> cosine.put(x.id(), x.score()));
        String normalizedQuery = TextNormalizer.normalize(request.query());
        Instant now = clock.instant();
        List<Candidate> found = new ArrayList<>();
        Optional<QueryPeriod> period =
                config.boosts().periodBonus() > 0
                        ? QueryPeriod.of(request.query())
                        : Optional.empty();
        boolean asksWhen =
                config.boosts().timeBonus() > 0 && TimeMentions.asksWhen(request.query());
        for (FusedCandidate c : MIX.fuse(rankings, weights)) {
            MemoryIndexes.Entry e = table.get(c.id());
            if (e == null) {
                continue; // deleted since the search
            }
            if (embedded) {
                boolean exact =
                        !normalizedQuery.isEmpty()
                                && e.normalizedContent().contains(normalizedQuery);
                Double cos = cosine.get(c.id());
                if ((cos == null || cos < request.threshold()) && !exact) {
                    continue;
                }
            }
            Candidate candidate = new Candidate(e.memory(), c.score());
            if (period.isPresent() && period.get().covers(e.memory().createdAt())) {
                candidate =
                        candidate.lift(
                                RecallBoost.PERIOD,
                                candidate.relevance() * (1 + config.boosts().periodBonus()));
            }
            if (asksWhen && e.statesTime()) {
                candidate =
                        candidate.lift(
                                RecallBoost.TIME,
                                candidate.relevance() * (1 + config.boosts().timeBonus()));
            }
            found.add(candidate);
        }
        if (config.boosts().sessionShare() > 0) {
            found = withSessions(found);
        }
        if (config.boosts().answerShare() > 0) {
            found = withAnswers(ns, found, table);
        }
        if (config.boosts().briefTurns().bursts()) {
            found = withBursts(ns, found, table);
        }
        // after the session lift: a session's share of its best turn holds no speaker bonus, so the
        // named person's own turns rise above the other speaker's turns of that session
        if (!named.isEmpty()) {
            Set<String> users = new HashSet<>();
            named.forEach(p -> users.add(p.userId()));
            found =
                    lifted(
                            found,
                            RecallBoost.SPEAKER,
                            m ->
                                    users.contains(m.scope().userId())
                                            ? OptionalDouble.of(1 + speakerBonus)
                                            : OptionalDouble.empty());
        }
        if (!facets.isEmpty()) {
            double bonus = config.boosts().facetBonus();
            found =
                    lifted(
                            found,
                            RecallBoost.FACET,
                            m -> {
                                MemoryIndexes.Entry e = table.get(m.id());
                                return e != null && e.facets().stream().anyMatch(facets::contains)
                                        ? OptionalDouble.of(1 + bonus)
                                        : OptionalDouble.empty();
                            });
        }
        if (adapting.prior().active()) {
            JudgedPrior prior = adapting.prior();
            found =
                    lifted(
                            found,
                            RecallBoost.JUDGED,
                            m -> {
                                double lift = prior.lift(m.id());
                                return lift > 0
                                        ? OptionalDouble.of(1 + lift)
                                        : OptionalDouble.empty();
                            });
        }
        // last, so that a reaction lifted by its session, its question or its burst is discounted
        // too
        MemoryServiceConfig.BriefTurns brief = config.boosts().briefTurns();
        if (brief.discount() > 0) {
            found =
                    lifted(
                            found,
                            RecallBoost.BRIEF,
                            m -> {
                                MemoryIndexes.Entry e = table.get(m.id());
                                return e != null
                                                && ConversationTurns.isTurn(m)
                                                && brief.brief(e.ownWords())
                                        ? OptionalDouble.of(brief.kept(e.ownWords()))
                                        : OptionalDouble.empty();
                            });
        }
        // the bonuses and lifts take strong memories past 1: scaling all keeps their order where
        // the scorer's cap at 1 would tie them and leave the order to recency
        double scale =
                Math.max(1.0, found.stream().mapToDouble(Candidate::relevance).max().orElse(1.0));
        List<ScoredMemory> scored = new ArrayList<>(found.size());
        for (Candidate c : found) {
            scored.add(scorer.score(c, scale, now));
        }
        List<ScoredMemory> ranked =
                scored.stream().sorted(ScoredMemory.ORDER).limit(request.limit()).toList();
        AssembledContext context = assembler.assemble(ranked, request.maxTokens());
        if (partial) {
            stats.partialRecalls.incrementAndGet();
        }
        if (record && !ranked.isEmpty()) {
            List<String> recalled = ranked.stream().map(ScoredMemory::id).toList();
            recorder.record(ns, recalled, now);
        }
        return new RecallResult(
                ranked,
                context,
                partial,
                (System.nanoTime() - started) / 1_000_000,
                named,
                List.copyOf(facets),
                request.userId().isEmpty()
                        ? Namespace.RecallScope.NAMESPACE
                        : Namespace.RecallScope.USER,
                adapting.applied());
    }

    /**
     * {@code found} with each conversation turn lifted by {@link
     * MemoryServiceConfig.Boosts#sessionShare()} of the best relevance among the found turns of its
     * session (itself included; not capped at 1, recall scales all relevances last): of two turns
     * that match a query as well, the one from the session that matches it best is the likelier
     * answer. Other memories are kept as they are.
     */
    private List<Candidate> withSessions(List<Candidate> found) {
        Map<String, Double> sessionBest = new HashMap<>();
        for (Candidate c : found) {
            if (ConversationTurns.isTurn(c.memory())) {
                sessionBest.merge(c.memory().scope().sessionName(), c.relevance(), Math::max);
            }
        }
        if (sessionBest.isEmpty()) {
            return found;
        }
        List<Candidate> lifted = new ArrayList<>(found.size());
        for (Candidate c : found) {
            if (!ConversationTurns.isTurn(c.memory())) {
                lifted.add(c);
                continue;
            }
            double best = sessionBest.get(c.memory().scope().sessionName());
            lifted.add(
                    c.lift(
                            RecallBoost.SESSION,
                            c.relevance() + config.boosts().sessionShare() * best));
        }
        return lifted;
    }

    /**
     * {@code found} with the other speaker's next turn in the session of each found turn that ends
     * asking ({@link MemoryIndexes.Entry#asks()}) at {@link
     * MemoryServiceConfig.Boosts#answerShare()} of its relevance, where that is more than its own:
     * "did you end up booking the cottage?" is answered by "yes! 3 nights in may". Only a reply
     * that was found itself: "WHAT" or "[image]" after a question must not ride it into the top.
     */
    private List<Candidate> withAnswers(
            String ns, List<Candidate> found, Map<String, MemoryIndexes.Entry> table) {
        return raisedNear(
                ns,
                found,
                found.stream().filter(turnWhose(table, MemoryIndexes.Entry::asks)).toList(),
                Reach.NEXT_TURN,
                RecallBoost.ANSWER,
                config.boosts().answerShare(),
                (question, reply) ->
                        !reply.memory()
                                .scope()
                                .userId()
                                .equals(question.memory().scope().userId()));
    }

    /** A found conversation turn whose entry in {@code table} passes {@code test}. */
    private static Predicate<Candidate> turnWhose(
            Map<String, MemoryIndexes.Entry> table, Predicate<MemoryIndexes.Entry> test) {
        return c -> {
            MemoryIndexes.Entry e = table.get(c.memory().id());
            return e != null && ConversationTurns.isTurn(c.memory()) && test.test(e);
        };
    }

    /** How many of a recall's most relevant brief turns share their relevance with their burst. */
    static final int BURST_SOURCES = 5;

    /** How far from such a turn, in turns of its session either way, its burst reaches. */
    static final int BURST_REACH = 2;

    /**
     * {@code found} with each found brief turn within {@link #BURST_REACH} turns of one of the
     * {@link #BURST_SOURCES} most relevant found brief turns raised to that turn's relevance, where
     * that is more than its own (either speaker: a burst is often one person's messages). Brief is
     * {@link MemoryServiceConfig.BriefTurns#brief}; a turn that was not found is not raised, as in
     * {@link #withAnswers}.
     */
    private List<Candidate> withBursts(
            String ns, List<Candidate> found, Map<String, MemoryIndexes.Entry> table) {
        MemoryServiceConfig.BriefTurns brief = config.boosts().briefTurns();
        Predicate<Candidate> briefTurn = turnWhose(table, e -> brief.brief(e.ownWords()));
        List<Candidate> sources =
                found.stream()
                        .filter(briefTurn)
                        .sorted(Comparator.comparingDouble(Candidate::relevance).reversed())
                        .limit(BURST_SOURCES)
                        .toList();
        return raisedNear(
                ns,
                found,
                sources,
                Reach.BURST,
                RecallBoost.BURST,
                1,
                (source, own) -> briefTurn.test(own));
    }

    /** Which turns of its session a source raises. */
    private enum Reach {
        /** The next turn only: a question's reply. */
        NEXT_TURN(1, false),
        /** {@link #BURST_REACH} turns either way: a burst of brief turns. */
        BURST(BURST_REACH, true);

        final int turns;
        final boolean before;

        Reach(int turns, boolean before) {
            this.turns = turns;
            this.before = before;
        }
    }

    /**
     * {@code found} with each found turn within {@code reach} of a source in its session (the
     * sources in order, before it then after it) raised to {@code share} of the source's relevance
     * where that is more than its own and {@code takes} lets it, the difference booked to {@code
     * boost}: the answer share and the bursts of brief turns. A turn that was not found is never
     * raised; without sources, {@code found} itself.
     */
    private List<Candidate> raisedNear(
            String ns,
            List<Candidate> found,
            List<Candidate> sources,
            Reach reach,
            RecallBoost boost,
            double share,
            BiPredicate<Candidate, Candidate> takes) {
        if (sources.isEmpty()) {
            return found;
        }
        ConversationTurns turns = indexes.turns(ns);
        Map<String, Candidate> best = new HashMap<>();
        found.forEach(c -> best.put(c.memory().id(), c));
        for (Candidate source : sources) {
            double raised = share * source.relevance();
            for (boolean before :
                    reach.before ? new boolean[] {true, false} : new boolean[] {false}) {
                String id = source.memory().id();
                for (int step = 0; step < reach.turns; step++) {
                    Optional<String> next = before ? turns.before(id) : turns.after(id);
                    if (next.isEmpty()) {
                        break;
                    }
                    id = next.get();
                    Candidate own = best.get(id);
                    if (own != null && own.relevance() < raised && takes.test(source, own)) {
                        best.put(id, own.lift(boost, raised));
                    }
                }
            }
        }
        return new ArrayList<>(best.values());
    }

    /**
     * {@code found} with each memory that {@code factor} gives a factor multiplied by it (not
     * capped; the difference booked to {@code boost}), the others as they are: the speaker and
     * facet bonuses ({@code 1 + bonus}) and the brief-turn discount (below 1).
     */
    private static List<Candidate> lifted(
            List<Candidate> found, RecallBoost boost, Function<Memory, OptionalDouble> factor) {
        List<Candidate> out = new ArrayList<>(found.size());
        for (Candidate c : found) {
            OptionalDouble f = factor.apply(c.memory());
            out.add(f.isPresent() ? c.lift(boost, c.relevance() * f.getAsDouble()) : c);
        }
        return out;
    }

    /** BM25 candidates within scope, at most {@code candidates}. */
    private Ranking lexical(
            RecallRequest request,
            Map<String, MemoryIndexes.Entry> table,
            Predicate<Memory> eligible,
            List<PersonNames.NamedPerson> named) {
        boolean scoped =
                !request.userId().isEmpty()
                        || !request.agentId().isEmpty()
                        || !request.types().isEmpty()
                        || !request.layers().isEmpty();
        // out-of-scope hits are dropped after the search: fetch more when a scope is asked
        int fetch = scoped ? config.recall().candidates() * 4 : config.recall().candidates();
        List<ScoredId> entries = new ArrayList<>();
        String query =
                config.recall().dropQuestionWords()
                        ? QuestionWords.drop(request.query())
                        : request.query();
        // the people the query names are the speaker bonus's: in BM25 their names match the
        // turns that only call them ("RAFA I PASSED", "hey fahim")
        query = MemoryIndexes.matching(PersonNames.without(query, named));
        for (LexicalHit hit : indexes.lexical().search(request.namespace(), query, fetch, false)) {
            MemoryIndexes.Entry e = table.get(hit.documentId());
            if (e != null
                    && eligible.test(e.memory())
                    && entries.size() < config.recall().candidates()) {
                entries.add(new ScoredId(hit.documentId(), hit.score()));
            }
        }
        return Ranking.of(entries);
    }

    /**
     * The query's nearest memories within scope, by the exact scan; scores any other too. The query
     * vector goes through the active adapter.
     */
    private Ranking dense(
            String text,
            Adapting adapting,
            Map<String, MemoryIndexes.Entry> table,
            Set<String> windowed,
            Predicate<Memory> eligible) {
        float[] query = adapting.vector();
        if (query == null) {
            query = model.embedQuery(text);
            if (adapting.adapter() != null) {
                query = adapting.adapter().apply(query);
            }
        }
        return nearest(query, table, windowed, eligible, config.recall().candidates());
    }

    /**
     * The {@code count} memories within scope nearest {@code query} (an embedded query vector), by
     * the exact scan; the ranking scores any other memory of the table too. {@code windowed}: the
     * ids of the table's memories with turn windows ({@link MemoryIndexes#windowed}).
     */
    Ranking nearest(
            float[] query,
            Map<String, MemoryIndexes.Entry> table,
            Set<String> windowed,
            Predicate<Memory> eligible,
            int count) {
        List<VectorHit> own =
                scanFor(inFlight.get())
                        .nearest(
                                table.values(),
                                e -> e.memory().id(),
                                MemoryIndexes.Entry::vector,
                                e -> eligible.test(e.memory()),
                                query,
                                count);
        if (!config.recall().turnWindows()) {
            return Ranking.dense(
                    own,
                    query,
                    UnitVectors.COSINE,
                    id -> {
                        MemoryIndexes.Entry e = table.get(id);
                        return e == null ? null : e.vector();
                    });
        }
        return withWindows(own, query, table, windowed, eligible, count);
    }

    /**
     * {@code own} (the scan's nearest by the memories' own vectors) with each long turn scored by
     * the best of its own cosine and its windows' ({@link dev.cairn.memory.TurnWindows}): the turns
     * with windows are scored apart (a few of the table), and the {@code count} best of both are
     * the ranking. A memory outside it that another signal brings is scored the same way.
     */
    private static Ranking withWindows(
            List<VectorHit> own,
            float[] query,
            Map<String, MemoryIndexes.Entry> table,
            Set<String> windowed,
            Predicate<Memory> eligible,
            int count) {
        Map<String, Double> best = new HashMap<>();
        own.forEach(h -> best.put(h.id(), h.score()));
        for (String id : windowed) {
            MemoryIndexes.Entry e = table.get(id);
            // an entry written while the ids are read may not be in the table yet, or not windowed
            if (e != null && !e.windows().isEmpty() && eligible.test(e.memory())) {
                best.put(e.memory().id(), windowedScore(query, e));
            }
        }
        List<ScoredId> ranked =
                best.entrySet().stream()
                        .map(x -> new ScoredId(x.getKey(), x.getValue()))
                        .sorted(
                                Comparator.comparingDouble(ScoredId::score)
                                        .reversed()
                                        .thenComparing(ScoredId::id))
                        .limit(count)
                        .toList();
        return Ranking.scored(
                ranked,
                id -> {
                    MemoryIndexes.Entry e = table.get(id);
                    return e != null && e.vector().length == query.length
                            ? windowedScore(query, e)
                            : null;
                });
    }

    /** The best of a memory's own cosine with {@code query} and its windows' (unit vectors). */
    private static double windowedScore(float[] query, MemoryIndexes.Entry e) {
        double score =
                e.vector().length == query.length
                        ? UnitVectors.COSINE.score(query, e.vector())
                        : Double.NEGATIVE_INFINITY;
        for (float[] w : e.windows()) {
            if (w.length == query.length) {
                score = Math.max(score, UnitVectors.COSINE.score(query, w));
            }
        }
        return score;
    }

    private static Predicate<Memory> eligibility(RecallRequest r) {
        return m ->
                m.recallable()
                        && inScope(m.scope().userId(), m.scope().agentId(), r)
                        && (r.types().isEmpty() || r.types().contains(m.type()))
                        && (r.layers().isEmpty() || r.layers().contains(m.layer()));
    }

    /**
     * Whether a memory of {@code userId}/{@code agentId} is in the request's scope. An unscoped
     * request sees every memory. A scoped one sees the shared memories (neither user nor agent) and
     * those that belong to an asked user or agent, never one of another user or agent: with only a
     * user asked, an agent's memory without a user is that agent's, not the user's.
     */
    static boolean inScope(String userId, String agentId, RecallRequest r) {
        boolean askedUser = !r.userId().isEmpty();
        boolean askedAgent = !r.agentId().isEmpty();
        if (!askedUser && !askedAgent) {
            return true;
        }
        boolean otherUser = askedUser && !userId.isEmpty() && !userId.equals(r.userId());
        boolean otherAgent = askedAgent && !agentId.isEmpty() && !agentId.equals(r.agentId());
        if (otherUser || otherAgent) {
            return false;
        }
        boolean shared = userId.isEmpty() && agentId.isEmpty();
        return shared
                || (askedUser && userId.equals(r.userId()))
                || (askedAgent && agentId.equals(r.agentId()));
    }

    /** Lets recorded recalls finish, then stops the executors. */
    @Override
    public void close() {
        recorder.close();
        searchers.shutdownNow();
    }
}
