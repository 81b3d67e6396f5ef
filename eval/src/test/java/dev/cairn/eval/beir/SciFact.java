package dev.cairn.eval.beir;

import dev.cairn.retrieval.ingest.Chunker;
import dev.cairn.retrieval.ingest.ChunkingConfig;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.retrieval.ingest.WordTokenCounter;
import dev.cairn.retrieval.lexical.IndexedChunk;
import dev.cairn.retrieval.lexical.LexicalConfig;
import dev.cairn.retrieval.lexical.LexicalIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * BM25 on BEIR SciFact train queries, for the checked-in baseline and for tuning by hand: {@code
 * java ... dev.cairn.eval.beir.SciFact [k1 b]}. The data is never copied into the project; it is
 * found through {@code -Dcairn.datasets=DIR}, {@code CAIRN_DATASETS} or a {@code shared/datasets}
 * folder above the working directory.
 */
final class SciFact {

    static final String NAMESPACE = "scifact";

    /** Number of document hits kept per query (Recall@100 needs 100). */
    static final int DEPTH = 100;

    private SciFact() {}

    /** The SciFact folder, if the data is on this machine. */
    static Optional<Path> dir() {
        String configured = System.getProperty("cairn.datasets", System.getenv("CAIRN_DATASETS"));
        if (configured != null) {
            return Optional.of(Path.of(configured, "scifact")).filter(Files::isDirectory);
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared/datasets/scifact");
            if (Files.isRegularFile(candidate.resolve("corpus.jsonl"))) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * Indexes the corpus with {@code chunker} (document to chunks), runs the train queries and
     * evaluates the document ranking (a document scores the max over its chunks).
     */
    static Metrics.Summary run(
            Path dir, LexicalConfig config, Function<ParsedDocument, List<IndexedChunk>> chunker) {
        try (LexicalIndex index = LexicalIndex.inMemory(config)) {
            long start = System.nanoTime();
            int documents = 0;
            try (Stream<ParsedDocument> docs = Beir.corpus(dir)) {
                for (ParsedDocument d : (Iterable<ParsedDocument>) docs::iterator) {
                    index.upsertDocument(NAMESPACE, d.id(), chunker.apply(d));
                    documents++;
                }
            }
            long indexed = System.nanoTime();
            Metrics.Summary summary = evaluate(dir, index, documents);
            if (Boolean.getBoolean("cairn.timing")) {
                System.out.printf(
                        "indexing %d ms, queries %d ms%n",
                        (indexed - start) / 1_000_000, (System.nanoTime() - indexed) / 1_000_000);
            }
            return summary;
        }
    }

    static Metrics.Summary evaluate(Path dir, LexicalIndex index, int documents) {
        Qrels qrels = Beir.qrels(dir.resolve("qrels/train.tsv"));
        Map<String, String> all = Beir.queries(dir.resolve("queries.jsonl"));
        // Only queries with train judgments count.
        Map<String, String> queries = new LinkedHashMap<>();
        qrels.queryIds().forEach(q -> queries.put(q, all.get(q)));
        boolean oneChunk = index.chunkCount(NAMESPACE) == documents;
        Map<String, List<ScoredDoc>> run =
                LexicalRun.run(index, NAMESPACE, queries, DEPTH, oneChunk);
        String runFile = System.getProperty("cairn.runFile");
        if (runFile != null) {
            try (Writer out = Files.newBufferedWriter(Path.of(runFile))) {
                RunFile.write(run, "cairn-bm25", out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return Metrics.evaluate(LexicalRun.ids(run), qrels);
    }

    /** Each document as one chunk: title + text, as Anserini's flat BEIR index. */
    static List<IndexedChunk> oneChunk(ParsedDocument d) {
        return List.of(new IndexedChunk(d.id() + "#0", d.title(), List.of(), d.body()));
    }

    /**
     * Each document chunked with the heading-aware chunker (test word counter); every chunk keeps
     * the document title.
     */
    static Function<ParsedDocument, List<IndexedChunk>> chunked(ChunkingConfig chunking) {
        Chunker chunker = Chunker.headingAware(new WordTokenCounter(), chunking);
        return d ->
                chunker.chunk(d).stream()
                        .map(
                                c ->
                                        new IndexedChunk(
                                                d.id() + "#" + c.ordinal(),
                                                d.title(),
                                                c.headingPath(),
                                                c.text()))
                        .toList();
    }

    /** Arguments: {@code [k1 b [maxTokens overlapTokens]]}; without chunk sizes, one chunk. */
    public static void main(String[] args) {
        Path dir = dir().orElseThrow(() -> new IllegalStateException("SciFact not found"));
        LexicalConfig config = LexicalConfig.DEFAULTS;
        if (args.length >= 2) {
            config = config.withBm25(Double.parseDouble(args[0]), Double.parseDouble(args[1]));
        }
        Function<ParsedDocument, List<IndexedChunk>> chunker = SciFact::oneChunk;
        String mode = "one chunk per document";
        if (args.length >= 4) {
            ChunkingConfig c =
                    new ChunkingConfig(Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            chunker = chunked(c);
            mode = "chunked " + c;
        }
        long t0 = System.nanoTime();
        Metrics.Summary s = run(dir, config, chunker);
        System.out.printf(
                "%s %s queries=%d nDCG@10=%.4f R@100=%.4f MRR@10=%.4f (%d ms)%n",
                config,
                mode,
                s.queries(),
                s.ndcg10(),
                s.recall100(),
                s.mrr10(),
                (System.nanoTime() - t0) / 1_000_000);
    }
}
