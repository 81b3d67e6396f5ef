package dev.cairn.server.cli;

import dev.cairn.embeddings.EmbeddingCache;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.eval.locomo.Locomo;
import dev.cairn.eval.locomo.LocomoEval;
import dev.cairn.eval.locomo.LocomoTuning;
import dev.cairn.eval.locomo.QuestionTime;
import dev.cairn.memory.RecallScorer;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.memory.service.MemoryServiceConfig;
import dev.cairn.memory.service.MemoryServiceConfig.Boosts;
import dev.cairn.memory.service.RecallMode;
import dev.cairn.memory.service.RecallRequest;
import dev.cairn.retrieval.feedback.QueryAdapterTrainer;
import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.retrieval.lexical.LexicalConfig;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.safety.WriteGuard;
import dev.cairn.server.http.Json;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cairn eval locomo FILE}: imports every LoCoMo conversation into a fresh embedded store
 * (one namespace each) through the memory write path, recalls every question with evidence in each
 * mode and prints evidence recall@k and recall latency; writes the numbers as JSON on request.
 */
@Command(
        name = "locomo",
        description = "Memory recall quality on LoCoMo: evidence recall@k.",
        mixinStandardHelpOptions = true)
final class EvalLocomoCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE", description = "locomo10.json")
    Path file;

    @Option(
            names = "--k",
            split = ",",
            defaultValue = "5,10,25",
            paramLabel = "K",
            description = "cut-offs of evidence recall@k")
    List<Integer> ks;

    @Option(
            names = "--mode",
            split = ",",
            defaultValue = "bm25,dense,hybrid",
            paramLabel = "MODE",
            description = "bm25, dense, hybrid")
    List<String> modes;

    @Option(
            names = "--weights",
            split = ",",
            paramLabel = "L,D",
            description = "hybrid relevance weights lexical,dense (default 0.1,0.9)")
    List<Double> weights;

    @Option(
            names = "--candidates",
            defaultValue = "100",
            paramLabel = "N",
            description = "BM25 and dense candidates per recall")
    int candidates;

    @Option(
            names = "--threshold",
            paramLabel = "COS",
            description = "minimum cosine (dense and hybrid; default the API's, 0.25)")
    Double threshold;

    @Option(
            names = "--only",
            split = ",",
            paramLabel = "SAMPLE",
            description = "only these sample ids, e.g. conv-26; default: every sample")
    List<String> only;

    @Option(
            names = "--work",
            paramLabel = "DIR",
            description = "data dir to import into (default: a temporary one, deleted after)")
    Path work;

    @Option(
            names = "--context-turns",
            defaultValue = "" + LocomoEval.DEFAULT_CONTEXT_TURNS,
            paramLabel = "N",
            description =
                    "earlier turns of the session each turn's memory carries (default 1: the turn"
                            + " it answers); 0 stores bare turns")
    int contextTurns;

    @Option(
            names = "--answer-share",
            paramLabel = "X",
            description =
                    "share of a turn's relevance the other speaker's reply gets when the turn ends"
                            + " asking (default "
                            + Boosts.DEFAULT_ANSWER_SHARE
                            + "; 0 turns it off)")
    Double answerShare;

    @Option(
            names = "--period-bonus",
            paramLabel = "X",
            description =
                    "relevance bonus of memories written in the period a question names (default "
                            + Boosts.DEFAULT_PERIOD_BONUS
                            + "; 0 turns it off)")
    Double periodBonus;

    @Option(
            names = "--time-bonus",
            paramLabel = "X",
            description =
                    "relevance bonus of memories that say when, for questions asking when (default "
                            + Boosts.DEFAULT_TIME_BONUS
                            + "; 0 turns it off)")
    Double timeBonus;

    @Option(
            names = "--session-share",
            paramLabel = "X",
            description =
                    "share of its session's best found turn's relevance each found turn gets on top"
                            + " (default "
                            + Boosts.DEFAULT_SESSION_SHARE
                            + "; 0 turns it off)")
    Double sessionShare;

    @Option(
            names = "--drop-question-words",
            paramLabel = "true|false",
            arity = "1",
            description = "whether BM25 leaves out the question's question words (default true)")
    Boolean dropQuestionWords;

    @Option(
            names = "--turn-windows",
            paramLabel = "true|false",
            arity = "1",
            description =
                    "whether a long turn is scored by the best of its own and its windows'"
                            + " cosines (default true)")
    Boolean turnWindows;

    @Option(
            names = "--speaker-bonus",
            paramLabel = "X,Y",
            split = ",",
            description =
                    "relevance bonus of the named speaker's turns, for other questions and for"
                            + " questions asking for several things (default "
                            + Boosts.DEFAULT_SPEAKER_BONUS
                            + ","
                            + Boosts.DEFAULT_LIST_SPEAKER_BONUS
                            + "; 0,0 turns it off)")
    List<Double> speakerBonus;

    @Option(
            names = "--facet-bonus",
            paramLabel = "X",
            description =
                    "relevance bonus of memories telling of a facet a list question asks for"
                            + " (default "
                            + Boosts.DEFAULT_FACET_BONUS
                            + "; 0 turns it off)")
    Double facetBonus;

    @Option(
            names = "--recency-weight",
            paramLabel = "X",
            description =
                    "weight of recency in the recall score (default "
                            + RecallScorer.DEFAULT_RECENCY_WEIGHT
                            + "; the questions are asked a day after each conversation's last"
                            + " turn)")
    Double recencyWeight;

    @Option(
            names = "--brief-turn",
            paramLabel = "D,W",
            split = ",",
            description =
                    "a conversation turn of fewer than W words loses D x (W - words) / W of its"
                            + " relevance (default "
                            + MemoryServiceConfig.BriefTurns.DEFAULT_DISCOUNT
                            + ","
                            + MemoryServiceConfig.BriefTurns.DEFAULT_WORDS
                            + "; 0,1 turns it off; W also says which turns are brief for"
                            + " --brief-bursts)")
    List<Double> briefTurn;

    @Option(
            names = "--brief-bursts",
            paramLabel = "BOOL",
            arity = "1",
            description =
                    "found brief turns within two turns of one of the five most relevant brief"
                            + " turns are raised to its relevance (default "
                            + MemoryServiceConfig.BriefTurns.DEFAULT_BURSTS
                            + "; false turns it off)")
    Boolean briefBursts;

    @Option(
            names = "--one-namespace",
            description =
                    "import every conversation into one namespace (locomo-all) and recall each"
                            + " question over all of them: recall at scale, among many people")
    boolean oneNamespace;

    @Option(
            names = "--tune-share",
            paramLabel = "X",
            description =
                    "learning from judgments: per conversation, record this share of its questions'"
                            + " evidence as memory judgments, train recall's adaptation from them"
                            + " and score the other questions before and after, apart for those"
                            + " whose evidence was judged and those whose was not (hybrid only);"
                            + " default: off")
    Double tuneShare;

    @Option(
            names = "--tune-prior-weight",
            paramLabel = "X",
            description =
                    "with --tune-share, the judged-relevant prior's weight (default "
                            + TuneOptions.DEFAULT_MEMORY_PRIOR_WEIGHT
                            + ")")
    Double tunePriorWeight;

    @Option(
            names = "--tune-regularization",
            paramLabel = "X",
            description =
                    "with --tune-share, the adapter's pull to the identity (default "
                            + QueryAdapterTrainer.Config.DEFAULT_REGULARIZATION
                            + ")")
    Double tuneRegularization;

    @Option(
            names = "--json",
            paramLabel = "FILE",
            description = "also write the results as JSON to FILE; default: none")
    Path json;

    @Option(
            names = "--questions",
            paramLabel = "FILE",
            description =
                    "write every question's evidence and recalled dia_ids, one JSON line per"
                            + " question and mode, for reading the misses; default: none")
    Path questionsFile;

    @Option(
            names = "--embedding-cache",
            defaultValue = "cairn-eval/locomo-embeddings.db",
            paramLabel = "FILE",
            description = "vectors kept between runs, a SQLite embedding cache like a data dir's")
    Path embeddingCache;

    @Override
    public Integer call() throws IOException {
        double threshold =
                this.threshold == null ? RecallRequest.DEFAULT_THRESHOLD : this.threshold;
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no such file: " + file);
        }
        for (int k : ks) {
            if (k < 1 || k > RecallRequest.MAX_LIMIT) {
                throw new IllegalArgumentException(
                        "illegal k: " + k + ", must be in [1, " + RecallRequest.MAX_LIMIT + "]");
            }
        }
        List<RecallMode> parsed = modes.stream().map(RecallMode::parse).toList();
        MemoryServiceConfig.Recall recall =
                MemoryServiceConfig.Recall.defaults()
                        .withRecordRecalls(false)
                        .withCandidates(candidates);
        if (dropQuestionWords != null) {
            recall = recall.withDropQuestionWords(dropQuestionWords);
        }
        if (turnWindows != null) {
            recall = recall.withTurnWindows(turnWindows);
        }
        if (recencyWeight != null) {
            recall =
                    recall.withScoreWeights(
                            recall.scoreWeights()
                                    .withRecency(
                                            recencyWeight, recall.scoreWeights().halfLifeDays()));
        }
        if (weights != null) {
            if (weights.size() != 2) {
                throw new IllegalArgumentException("--weights takes two numbers: lexical,dense");
            }
            recall = recall.withHybridWeights(weights.get(0), weights.get(1));
        }
        Boosts boosts = Boosts.defaults();
        if (answerShare != null) {
            boosts = boosts.withAnswerShare(answerShare);
        }
        if (periodBonus != null) {
            boosts = boosts.withPeriodBonus(periodBonus);
        }
        if (timeBonus != null) {
            boosts = boosts.withTimeBonus(timeBonus);
        }
        if (sessionShare != null) {
            boosts = boosts.withSessionShare(sessionShare);
        }
        if (facetBonus != null) {
            boosts = boosts.withFacetBonus(facetBonus);
        }
        if (briefTurn != null) {
            if (briefTurn.size() != 2 || briefTurn.get(1) != Math.rint(briefTurn.get(1))) {
                throw new IllegalArgumentException(
                        "--brief-turn takes a discount and a whole number of words, e.g. 0.3,10");
            }
            boosts =
                    boosts.withBriefTurns(
                            new MemoryServiceConfig.BriefTurns(
                                    briefTurn.get(0),
                                    briefTurn.get(1).intValue(),
                                    boosts.briefTurns().bursts()));
        }
        if (briefBursts != null) {
            boosts = boosts.withBriefTurns(boosts.briefTurns().withBursts(briefBursts));
        }
        if (speakerBonus != null) {
            if (speakerBonus.size() != 2) {
                throw new IllegalArgumentException(
                        "--speaker-bonus takes two numbers: other questions, list questions");
            }
            boosts = boosts.withSpeakerBonus(speakerBonus.get(0), speakerBonus.get(1));
        }
        MemoryServiceConfig config =
                MemoryServiceConfig.defaults()
                        .withRecall(recall)
                        .withBoosts(boosts)
                        .withMaintenance(
                                MemoryServiceConfig.Maintenance.defaults()
                                        .withInterval(Duration.ZERO));
        List<Locomo.Conversation> conversations =
                Locomo.read(file).stream()
                        .filter(c -> only == null || only.contains(c.sampleId()))
                        .toList();
        if (conversations.isEmpty()) {
            throw new IllegalArgumentException("no conversation selected in " + file);
        }
        boolean temporary = work == null;
        Path dir = temporary ? Files.createTempDirectory("cairn-locomo-") : work;
        LocomoEval.Result result;
        QuestionTime askedAt = new QuestionTime(Instant.now());
        try (EmbeddingCache cache = EmbeddingCache.sqlite(embeddingCache);
                EmbeddingModel model =
                        EmbeddingModels.cached(EmbeddingModels.defaultModel(), cache);
                Store store =
                        Store.embedded(
                                dir, StoreConfig.defaults().withDimensions(model.dimensions()));
                MemoryService service =
                        MemoryService.create(
                                store,
                                model,
                                LexicalIndex.inMemory(LexicalConfig.DEFAULTS),
                                WriteGuard.standard(),
                                config,
                                askedAt)) {
            LocomoEval eval =
                    new LocomoEval(
                            store,
                            service,
                            contextTurns,
                            msg -> System.err.println("[locomo] " + msg));
            eval.askingAt(askedAt);
            if (oneNamespace) {
                eval.inOneNamespace();
            }
            if (tuneShare != null) {
                if (oneNamespace) {
                    throw new IllegalArgumentException(
                            "--tune-share measures one namespace per conversation; leave out"
                                    + " --one-namespace");
                }
                TuneOptions options = TuneOptions.MEMORY_DEFAULTS;
                if (tunePriorWeight != null) {
                    options = options.withPriorWeight(tunePriorWeight);
                }
                if (tuneRegularization != null) {
                    options =
                            options.withTrainer(
                                    options.trainer().withRegularization(tuneRegularization));
                }
                printTuning(
                        new LocomoTuning(
                                        eval,
                                        store,
                                        service,
                                        msg -> System.err.println("[locomo] " + msg))
                                .run(
                                        conversations,
                                        tuneShare,
                                        QueryAdapterTrainer.Config.DEFAULT_SEED,
                                        ks,
                                        threshold,
                                        options));
                return 0;
            }
            if (questionsFile == null) {
                result = eval.run(conversations, ks, parsed, threshold);
            } else {
                try (BufferedWriter out = Files.newBufferedWriter(questionsFile)) {
                    eval.onQuestion(
                            q -> {
                                try {
                                    out.write(Json.MAPPER.writeValueAsString(q));
                                    out.newLine();
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            });
                    result = eval.run(conversations, ks, parsed, threshold);
                }
            }
        } finally {
            if (temporary) {
                Folders.deleteTree(dir);
            }
        }
        print(result);
        if (json != null) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("file", file.toString());
            out.put("conversations", result.conversations());
            out.put("turns", result.turns());
            out.put("memories", result.memories());
            out.put("questions", result.questions());
            out.put("ingestSeconds", result.ingestSeconds());
            out.put("candidates", candidates);
            out.put("threshold", threshold);
            out.put("contextTurns", contextTurns);
            out.put("oneNamespace", oneNamespace);
            out.put("answerShare", config.boosts().answerShare());
            out.put("periodBonus", config.boosts().periodBonus());
            out.put("timeBonus", config.boosts().timeBonus());
            out.put("sessionShare", config.boosts().sessionShare());
            out.put("dropQuestionWords", config.recall().dropQuestionWords());
            out.put("turnWindows", config.recall().turnWindows());
            out.put(
                    "speakerBonus",
                    List.of(config.boosts().speakerBonus(), config.boosts().listSpeakerBonus()));
            out.put("facetBonus", config.boosts().facetBonus());
            out.put("recencyWeight", config.recall().scoreWeights().recency());
            out.put("askedAfterLastTurn", QuestionTime.AFTER_LAST_TURN.toString());
            out.put(
                    "briefTurn",
                    List.of(
                            config.boosts().briefTurns().discount(),
                            config.boosts().briefTurns().words()));
            out.put("briefBursts", config.boosts().briefTurns().bursts());
            out.put(
                    "weights",
                    Map.of(
                            "lexical",
                            config.recall().lexicalWeight(),
                            "dense",
                            config.recall().denseWeight()));
            List<Map<String, Object>> ms = new ArrayList<>();
            for (LocomoEval.ModeResult m : result.modes()) {
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("mode", m.mode().name().toLowerCase(Locale.ROOT));
                Map<String, Double> r = new LinkedHashMap<>();
                m.recallAtK().forEach((k, x) -> r.put("recall@" + k, x));
                v.put("recall", r);
                Map<String, Object> byCat = new LinkedHashMap<>();
                m.recallAtKByCategory().forEach((cat, rk) -> byCat.put(String.valueOf(cat), rk));
                v.put("recallByCategory", byCat);
                v.put("p50Ms", m.p50Millis());
                v.put("p95Ms", m.p95Millis());
                ms.add(v);
            }
            out.put("modes", ms);
            Files.write(json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(out));
        }
        return 0;
    }

    private void printTuning(LocomoTuning.Result r) {
        System.out.printf(
                Locale.ROOT,
                "LoCoMo, learning from judgments: %d conversations, %d questions judged;"
                        + " adaptation trained in %d, activated in %d%n",
                r.conversations(),
                r.judged(),
                r.trained(),
                r.activated());
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-22s", "scored"));
        ks.forEach(
                k ->
                        header.append(
                                String.format(
                                        Locale.ROOT, " %-22s", "recall@" + k + " before/after")));
        System.out.println(header);
        for (var row :
                List.of(
                        Map.entry("all", r.all()),
                        Map.entry("seen evidence", r.seen()),
                        Map.entry("unseen evidence", r.unseen()))) {
            LocomoTuning.Group g = row.getValue();
            StringBuilder line =
                    new StringBuilder(
                            String.format(
                                    Locale.ROOT,
                                    "%-22s",
                                    row.getKey() + " (" + g.questions() + ")"));
            ks.forEach(
                    k ->
                            line.append(
                                    String.format(
                                            Locale.ROOT,
                                            " %.4f / %.4f        ",
                                            g.before().getOrDefault(k, 0.0),
                                            g.after().getOrDefault(k, 0.0))));
            System.out.println(line.toString().stripTrailing());
        }
    }

    private void print(LocomoEval.Result r) {
        System.out.printf(
                Locale.ROOT,
                "LoCoMo: %d conversations, %d turns -> %d memories, %d questions with evidence"
                        + " (import %.1f s)%n",
                r.conversations(),
                r.turns(),
                r.memories(),
                r.questions(),
                r.ingestSeconds());
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-8s", "mode"));
        ks.forEach(k -> header.append(String.format(Locale.ROOT, " %-10s", "recall@" + k)));
        header.append(String.format(Locale.ROOT, " %-8s %-8s", "p50 ms", "p95 ms"));
        System.out.println(header);
        for (LocomoEval.ModeResult m : r.modes()) {
            StringBuilder line =
                    new StringBuilder(
                            String.format(
                                    Locale.ROOT,
                                    "%-8s",
                                    m.mode() == RecallMode.LEXICAL
                                            ? "bm25"
                                            : m.mode().name().toLowerCase(Locale.ROOT)));
            ks.forEach(
                    k -> line.append(String.format(Locale.ROOT, " %-10.4f", m.recallAtK().get(k))));
            line.append(String.format(Locale.ROOT, " %-8.1f %-8.1f", m.p50Millis(), m.p95Millis()));
            System.out.println(line);
        }
    }
}
