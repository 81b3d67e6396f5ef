package dev.cairn.server.cli;

import dev.cairn.eval.beir.Beir;
import dev.cairn.eval.beir.BeirEvaluation;
import dev.cairn.eval.beir.EvalMode;
import dev.cairn.eval.beir.Metrics;
import dev.cairn.eval.beir.Qrels;
import dev.cairn.eval.beir.RunFile;
import dev.cairn.retrieval.FusionStrategy;
import dev.cairn.retrieval.Grounding;
import dev.cairn.retrieval.IngestMode;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.FeedbackLog;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.retrieval.feedback.JudgmentSplit;
import dev.cairn.retrieval.feedback.QueryAdapterTrainer;
import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.retrieval.feedback.TuneReport;
import dev.cairn.retrieval.fusion.SignalWeights;
import dev.cairn.retrieval.ingest.BeirIds;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.server.Cairn;
import dev.cairn.server.ServerSettings;
import dev.cairn.server.api.view.AdaptationViews;
import dev.cairn.server.http.Json;
import io.helidon.config.Config;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cairn eval beir DIR}: ingests a BEIR corpus into an evaluation data dir (kept, so a second
 * run reuses the index and the embeddings), runs the judged queries in each mode and prints
 * nDCG@10, Recall@100, MRR@10, latency and the grounding AUROC; writes a TREC run file per mode
 * and, on request, the numbers as JSON. With {@code --tune-qrels} it then records that file's
 * judgments as the namespace's feedback, trains an adaptation ({@link KnowledgeBase#tune}) and
 * scores every mode again ("tuned" rows). Each run starts from a namespace without feedback or
 * adaptations.
 *
 * <p>Why about 570 lines: fourteen options with their help text are a fifth of it, and {@link
 * #call()} runs the evaluation's steps in order (ingest, each mode, the optional tuning and its
 * rows, the outputs) over state they share; the helpers beside it are each one step.
 */
@Command(
        name = "beir",
        description = "Ranking quality on a BEIR-format folder.",
        mixinStandardHelpOptions = true)
final class EvalBeirCommand implements Callable<Integer> {

    @Parameters(
            index = "0",
            paramLabel = "DIR",
            description = "folder with corpus.jsonl, queries.jsonl, qrels/")
    Path dir;

    @Option(
            names = "--qrels",
            paramLabel = "FILE",
            description = "judgments (default: qrels/test.tsv, dev.tsv or train.tsv)")
    Path qrelsFile;

    @Option(
            names = "--mode",
            split = ",",
            defaultValue = "bm25,dense,hybrid,hybrid-graph",
            paramLabel = "MODE",
            description =
                    "bm25, dense, graph, hybrid (bm25 + dense), hybrid-graph (bm25 + dense +"
                            + " graph)")
    List<String> modes;

    @Option(
            names = "--weights",
            split = ",",
            paramLabel = "L,D,G",
            description = "hybrid-graph weights lexical,dense,graph (default 1,1,1)")
    List<Double> weights;

    @Option(
            names = "--json",
            paramLabel = "FILE",
            description = "also write the results as JSON to FILE; default: none")
    Path json;

    @Option(
            names = "--work",
            paramLabel = "DIR",
            description = "evaluation data dir (default cairn-eval/<folder name>)")
    Path work;

    @Option(
            names = "--chunk-tokens",
            paramLabel = "N",
            description =
                    "chunk size in model tokens for the corpus (default: the configured 256); 480"
                            + " embeds a whole BEIR passage as one chunk, as BEIR's dense baselines do")
    Integer chunkTokens;

    @Option(
            names = "--fusion",
            defaultValue = "adaptive",
            paramLabel = "rrf|adaptive|convex",
            description = "how hybrid modes fuse their signals")
    String fusion;

    @Option(
            names = "--max-docs",
            paramLabel = "N",
            description =
                    "evaluate on the first N corpus documents only, with the queries whose judged"
                            + " documents all lie among them (a smaller, clearly labelled subset);"
                            + " default: all")
    Integer maxDocs;

    @Option(
            names = "--tune-qrels",
            paramLabel = "FILE",
            description =
                    "judgments to train an adaptation on before scoring again (tuned rows); keep"
                            + " their queries apart from --qrels'; default: none, no tuning")
    Path tuneQrels;

    @Option(
            names = "--tune-epochs",
            paramLabel = "N",
            description =
                    "training epochs (default " + QueryAdapterTrainer.Config.DEFAULT_EPOCHS + ")")
    Integer tuneEpochs;

    @Option(
            names = "--tune-learning-rate",
            paramLabel = "X",
            description =
                    "Adam step size (default "
                            + QueryAdapterTrainer.Config.DEFAULT_LEARNING_RATE
                            + ")")
    Double tuneLearningRate;

    @Option(
            names = "--tune-regularization",
            paramLabel = "X",
            description =
                    "pull towards the identity (default "
                            + QueryAdapterTrainer.Config.DEFAULT_REGULARIZATION
                            + ")")
    Double tuneRegularization;

    @Option(
            names = "--tune-prior-weight",
            paramLabel = "X",
            description =
                    "weight of the judged-relevant prior (default "
                            + TuneOptions.DEFAULT_PRIOR_WEIGHT
                            + "; 0 trains without one)")
    Double tunePriorWeight;

    @Option(
            names = "--tune-learned-fusion",
            paramLabel = "BOOL",
            arity = "1",
            description =
                    "learn a fusion of the two signals' evidence with the adapter (default true)")
    boolean tuneLearnedFusion = true;

    @Option(
            names = "--tune-activate",
            description =
                    "score the trained version even when the held-back check rejects it (stored"
                            + " again as an active version; to measure what the check turned down)")
    boolean tuneActivate;

    @Override
    public Integer call() throws IOException {
        if (!Files.isRegularFile(dir.resolve("corpus.jsonl"))
                || !Files.isRegularFile(dir.resolve("queries.jsonl"))) {
            throw new IllegalArgumentException(
                    dir + " is not a BEIR folder: needs corpus.jsonl and queries.jsonl");
        }
        Path qrelsPath = qrelsFile != null ? qrelsFile : defaultQrels(dir);
        List<EvalMode> evalModes = modes.stream().map(EvalMode::parse).toList();
        SignalWeights hybrid =
                weights == null
                        ? SignalWeights.DEFAULTS
                        : weights.size() == 3
                                ? SignalWeights.of(weights.get(0), weights.get(1), weights.get(2))
                                : fail("--weights needs three numbers: lexical,dense,graph");
        Path workDir =
                work != null
                        ? work
                        : Path.of(
                                "cairn-eval",
                                dir.toAbsolutePath().normalize().getFileName().toString());
        String namespace = "beir";
        Map<String, String> queries = Beir.queries(dir.resolve("queries.jsonl"));
        Qrels qrels = Beir.qrels(qrelsPath);
        long mappedIds =
                qrels.judgments().values().stream()
                        .flatMap(judged -> judged.keySet().stream())
                        .distinct()
                        .filter(id -> !BeirIds.beirId(id).equals(id))
                        .count();
        if (mappedIds > 0) {
            // a BEIR id is not a URL path segment; Cairn's document ids are (BeirIds)
            System.out.println(
                    "note: "
                            + mappedIds
                            + " judged document ids hold '/' or '%' (or are '.' or '..'), not"
                            + " allowed in a Cairn document id: evaluated as percent-encoded ids"
                            + " (/ -> %2F, % -> %25); run files keep the corpus ids");
        }
        java.util.Set<String> kept = null;
        if (maxDocs != null) {
            if (maxDocs < 1) {
                throw new IllegalArgumentException("--max-docs must be >= 1");
            }
            try (Stream<ParsedDocument> corpus = Beir.corpus(dir).limit(maxDocs)) {
                kept = corpus.map(ParsedDocument::id).collect(java.util.stream.Collectors.toSet());
            }
            qrels = within(qrels, kept);
            System.out.printf(
                    Locale.ROOT,
                    "subset: first %d documents, %d judged queries whose documents all lie in it%n",
                    maxDocs,
                    qrels.queryIds().size());
        }

        ServerSettings settings =
                Settings.resolve(Config.create().get("cairn"), workDir, null, "").withDbUrl("");
        if (chunkTokens != null) {
            settings =
                    settings.withRetrieval(
                            settings.retrieval()
                                    .withChunking(
                                            new dev.cairn.retrieval.ingest.ChunkingConfig(
                                                    chunkTokens,
                                                    Math.min(
                                                            chunkTokens / 8,
                                                            dev.cairn.retrieval.ingest
                                                                    .ChunkingConfig
                                                                    .DEFAULT_OVERLAP_TOKENS))));
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("dataset", dir.toString());
        report.put("qrels", qrelsPath.toString());
        report.put("maxDocs", maxDocs == null ? "all" : maxDocs);
        report.put("judgedQueries", qrels.queryIds().size());
        List<Map<String, Object>> rows = new ArrayList<>();
        Qrels tuning = tuneQrels == null ? null : Beir.qrels(tuneQrels);
        Map<String, java.util.Set<String>> groups = Map.of();
        if (tuning != null && kept != null) {
            tuning = within(tuning, kept);
        }
        if (tuning != null) {
            java.util.Set<String> shared = new java.util.HashSet<>(tuning.queryIds());
            shared.retainAll(qrels.queryIds());
            System.out.printf(
                    Locale.ROOT,
                    "tuning on %d judged queries of %s, %d of them also scored%n",
                    tuning.queryIds().size(),
                    tuneQrels,
                    shared.size());
            report.put("tuneQrels", tuneQrels.toString());
            report.put("tuneQueriesAlsoScored", shared.size());
            groups = documentGroups(qrels, tuning);
            System.out.printf(
                    Locale.ROOT,
                    "of the %d scored queries, %d have a relevant document the tuning judgments"
                            + " judged relevant (seen docs), %d have none (unseen docs)%n",
                    qrels.queryIds().size(),
                    groups.get(SEEN_DOCS).size(),
                    groups.get(UNSEEN_DOCS).size());
            report.put("seenDocQueries", groups.get(SEEN_DOCS).size());
            report.put("unseenDocQueries", groups.get(UNSEEN_DOCS).size());
        }
        try (Cairn cairn = Cairn.open(settings)) {
            ingestIfNeeded(cairn, namespace);
            KnowledgeBase kb = cairn.knowledge();
            kb.feedback().clear(namespace);
            kb.adaptations().clear(namespace);
            scoreModes(
                    kb, namespace, queries, qrels, evalModes, hybrid, workDir, false, groups, rows);
            if (tuning != null) {
                recordJudgments(kb, namespace, queries, tuning);
                QueryAdapterTrainer.Config trainer = QueryAdapterTrainer.Config.DEFAULTS;
                if (tuneEpochs != null) {
                    trainer = trainer.withEpochs(tuneEpochs);
                }
                if (tuneLearningRate != null) {
                    trainer = trainer.withLearningRate(tuneLearningRate);
                }
                if (tuneRegularization != null) {
                    trainer = trainer.withRegularization(tuneRegularization);
                }
                TuneOptions options = TuneOptions.DEFAULTS.withTrainer(trainer);
                if (tunePriorWeight != null) {
                    options = options.withPriorWeight(tunePriorWeight);
                }
                options = options.withLearnedFusion(tuneLearnedFusion);
                Adaptation trained = kb.tune(namespace, options);
                System.out.println(
                        TuneCommand.describe(
                                Json.MAPPER.valueToTree(AdaptationViews.AdaptationView.of(trained)),
                                "docs"));
                report.put("tuning", trained.report());
                if (tuneActivate && trained.state() != Adaptation.State.ACTIVE) {
                    TuneReport r = trained.report();
                    Adaptation forced =
                            kb.adaptations()
                                    .add(
                                            namespace,
                                            trained.adapter(),
                                            trained.denseWeight(),
                                            trained.prior(),
                                            trained.fusion(),
                                            r.withActivated(true));
                    System.out.printf(
                            Locale.ROOT,
                            "--tune-activate: version %d rejected; scored as version %d, activated"
                                    + " regardless%n",
                            trained.version(),
                            forced.version());
                    report.put("forcedActivation", true);
                }
                report.put("trainer", trainer);
                scoreModes(
                        kb, namespace, queries, qrels, evalModes, hybrid, workDir, true, groups,
                        rows);
            }
        }
        report.put("modes", rows);
        if (json != null) {
            Files.write(
                    json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(report));
        }
        return 0;
    }

    static final String SEEN_DOCS = "seen docs";
    static final String UNSEEN_DOCS = "unseen docs";

    /**
     * The scored queries of {@code qrels} in two groups: those with a relevant document that {@code
     * tuning} judged relevant for some query ({@link #SEEN_DOCS}), and the others ({@link
     * #UNSEEN_DOCS}), whose gains can only come from how queries map to documents.
     */
    static Map<String, java.util.Set<String>> documentGroups(Qrels qrels, Qrels tuning) {
        java.util.Set<String> trained =
                JudgmentSplit.relevantDocuments(tuning.judgments().values());
        java.util.Set<String> seen = new java.util.LinkedHashSet<>();
        java.util.Set<String> unseen = new java.util.LinkedHashSet<>();
        for (String q : qrels.queryIds()) {
            (JudgmentSplit.sharesRelevantDocument(qrels.of(q), trained) ? seen : unseen).add(q);
        }
        Map<String, java.util.Set<String>> groups = new LinkedHashMap<>();
        groups.put(SEEN_DOCS, seen);
        groups.put(UNSEEN_DOCS, unseen);
        return groups;
    }

    /** The judged queries of {@code qrels} whose judged documents all lie in {@code kept}. */
    private static Qrels within(Qrels qrels, java.util.Set<String> kept) {
        Map<String, Map<String, Integer>> within = new LinkedHashMap<>();
        qrels.judgments()
                .forEach(
                        (q, judged) -> {
                            if (kept.containsAll(judged.keySet())) {
                                within.put(q, judged);
                            }
                        });
        return new Qrels(within);
    }

    /** Records every judged query of {@code judged} as evaluator feedback, in batches. */
    private static void recordJudgments(
            KnowledgeBase kb, String namespace, Map<String, String> queries, Qrels judged) {
        List<Judgment> batch = new ArrayList<>();
        for (String qid : judged.queryIds()) {
            String text = queries.get(qid);
            if (text == null) {
                continue;
            }
            judged.of(qid)
                    .forEach(
                            (doc, grade) ->
                                    batch.add(
                                            Judgment.draft(
                                                    text,
                                                    new Judgment.Target(
                                                            Judgment.Kind.DOCUMENT, doc),
                                                    Math.min(grade, Judgment.MAX_GRADE),
                                                    Judgment.Source.EVALUATOR)));
            if (batch.size() >= FeedbackLog.MAX_PER_CALL - 100) {
                kb.feedback().record(namespace, batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            kb.feedback().record(namespace, batch);
        }
    }

    private void scoreModes(
            KnowledgeBase kb,
            String namespace,
            Map<String, String> queries,
            Qrels qrels,
            List<EvalMode> evalModes,
            SignalWeights hybrid,
            Path workDir,
            boolean tuned,
            Map<String, java.util.Set<String>> groups,
            List<Map<String, Object>> rows)
            throws IOException {
        System.out.printf(
                Locale.ROOT,
                "%-18s %8s %10s %8s %8s %8s %9s%n",
                "mode",
                "nDCG@10",
                "Recall@100",
                "MRR@10",
                "p50 ms",
                "p95 ms",
                "AUROC(g)");
        for (EvalMode mode : evalModes) {
            SignalWeights w = mode == EvalMode.HYBRID_GRAPH ? hybrid : mode.weights();
            BeirEvaluation.ModeResult r =
                    BeirEvaluation.run(
                            kb, namespace, queries, qrels, mode, w, FusionStrategy.parse(fusion));
            String label = mode.wireName() + (tuned ? " tuned" : "");
            System.out.printf(
                    Locale.ROOT,
                    "%-18s %8.4f %10.4f %8.4f %8.1f %8.1f %9.3f%n",
                    label,
                    r.summary().ndcg10(),
                    r.summary().recall100(),
                    r.summary().mrr10(),
                    r.p50Ms(),
                    r.p95Ms(),
                    r.groundingAuroc());
            Map<String, Object> byDocuments = new LinkedHashMap<>();
            for (Map.Entry<String, java.util.Set<String>> group : groups.entrySet()) {
                Metrics.Summary part = r.summary().restrictedTo(group.getValue());
                System.out.printf(
                        Locale.ROOT,
                        "%-18s %8.4f %10.4f %8.4f   (%d queries)%n",
                        "  " + group.getKey(),
                        part.ndcg10(),
                        part.recall100(),
                        part.mrr10(),
                        part.queries());
                byDocuments.put(
                        group.getKey().replace(' ', '-'),
                        Map.of(
                                "queries", part.queries(),
                                "ndcg10", part.ndcg10(),
                                "recall100", part.recall100(),
                                "mrr10", part.mrr10()));
            }
            String file = mode.wireName() + (tuned ? "-tuned" : "");
            Path runFile = workDir.resolve("run-" + file + ".trec");
            try (Writer out = Files.newBufferedWriter(runFile)) {
                RunFile.write(r.run(), "cairn-" + mode.wireName(), out);
            }
            Path groundingFile = workDir.resolve("grounding-" + file + ".tsv");
            try (Writer out = Files.newBufferedWriter(groundingFile)) {
                out.write(
                        "query\tgrounding\trelevant\t"
                                + String.join("\t", Grounding.Features.NAMES)
                                + "\n");
                for (BeirEvaluation.GroundingRow g : r.groundingRows()) {
                    StringBuilder line = new StringBuilder();
                    line.append(g.queryId())
                            .append('\t')
                            .append(String.format(Locale.ROOT, "%.6f", g.grounding()))
                            .append('\t')
                            .append(g.relevant() ? 1 : 0);
                    for (double v : g.features().values()) {
                        line.append('\t').append(String.format(Locale.ROOT, "%.6f", v));
                    }
                    out.write(line.append('\n').toString());
                }
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("mode", mode.wireName());
            row.put("tuned", tuned);
            row.put(
                    "weights",
                    Map.of(
                            "lexical",
                            w.weight(dev.cairn.retrieval.fusion.Signal.LEXICAL),
                            "dense",
                            w.weight(dev.cairn.retrieval.fusion.Signal.DENSE),
                            "graph",
                            w.weight(dev.cairn.retrieval.fusion.Signal.GRAPH)));
            row.put("queries", r.summary().queries());
            row.put("ndcg10", r.summary().ndcg10());
            row.put("recall100", r.summary().recall100());
            row.put("mrr10", r.summary().mrr10());
            row.put("p50Ms", r.p50Ms());
            row.put("p95Ms", r.p95Ms());
            row.put("groundingAuroc", r.groundingAuroc());
            if (!byDocuments.isEmpty()) {
                row.put("byDocuments", byDocuments);
            }
            row.put("runFile", runFile.toString());
            rows.add(row);
        }
    }

    private void ingestIfNeeded(Cairn cairn, String namespace) {
        long documents;
        try (Stream<String> lines = Files.lines(dir.resolve("corpus.jsonl"))) {
            documents = lines.filter(l -> !l.isBlank()).count();
            if (maxDocs != null) {
                documents = Math.min(documents, maxDocs);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        if (cairn.store().namespace(namespace).isPresent()) {
            long stored =
                    cairn.knowledge()
                            .documents()
                            .documents(namespace, dev.cairn.store.PageRequest.first(1), "")
                            .total();
            if (stored == documents) {
                return;
            }
            if (stored > documents) { // a larger --max-docs before: start over
                cairn.store().deleteNamespace(namespace);
            }
        }
        if (cairn.store().namespace(namespace).isEmpty()) {
            cairn.store().createNamespace(namespace, "BEIR evaluation of " + dir);
        }
        // Fewer stored than asked for: an ingest was interrupted, and this one resumes it (the
        // documents stored already are skipped, not embedded again).
        try (Stream<ParsedDocument> corpus = Beir.corpus(dir).limit(documents);
                IngestProgress progress = new IngestProgress(documents, true)) {
            Iterator<ParsedDocument> it = corpus.iterator();
            cairn.knowledge()
                    .ingestAll(namespace, () -> it, IngestMode.SKIP_UNCHANGED, progress::step);
            progress.close();
            progress.summary(System.err, namespace);
        }
    }

    private static Path defaultQrels(Path dir) {
        for (String split : List.of("test", "dev", "train")) {
            Path p = dir.resolve("qrels").resolve(split + ".tsv");
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new IllegalArgumentException(
                "no qrels/test.tsv, dev.tsv or train.tsv in " + dir + "; pass --qrels");
    }

    private static <T> T fail(String message) {
        throw new IllegalArgumentException(message);
    }
}
