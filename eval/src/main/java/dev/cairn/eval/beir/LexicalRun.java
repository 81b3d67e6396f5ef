package dev.cairn.eval.beir;

import dev.cairn.retrieval.lexical.LexicalHit;
import dev.cairn.retrieval.lexical.LexicalIndex;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs queries against a {@link LexicalIndex} and ranks documents, a document scoring the maximum
 * over its chunks. Stateless and thread-safe (as the index is).
 */
public final class LexicalRun {

    /**
     * Chunk hits fetched per wanted document, so that enough distinct documents survive the
     * max-per-document step when documents have several chunks.
     */
    public static final int CHUNKS_PER_DOCUMENT = 8;

    private LexicalRun() {}

    /**
     * Document rankings of {@code queries} (query id to text), each at most {@code depth} long.
     *
     * @param oneChunkPerDocument whether every document is a single chunk (then exactly {@code
     *     depth} chunk hits are fetched)
     */
    public static Map<String, List<ScoredDoc>> run(
            LexicalIndex index,
            String namespace,
            Map<String, String> queries,
            int depth,
            boolean oneChunkPerDocument) {
        if (depth < 1) {
            throw new IllegalArgumentException("illegal depth: " + depth + ", must be >= 1");
        }
        int fetch = oneChunkPerDocument ? depth : depth * CHUNKS_PER_DOCUMENT;
        Map<String, List<ScoredDoc>> run = new LinkedHashMap<>();
        queries.forEach(
                (qid, text) -> {
                    List<LexicalHit> hits = index.search(namespace, text, fetch, false);
                    List<ScoredDoc> perChunk = new ArrayList<>(hits.size());
                    for (LexicalHit h : hits) {
                        perChunk.add(new ScoredDoc(h.documentId(), h.score()));
                    }
                    List<ScoredDoc> docs = Metrics.maxPerDocument(perChunk);
                    run.put(qid, List.copyOf(docs.subList(0, Math.min(depth, docs.size()))));
                });
        return run;
    }

    /** Only the ids of a run, as {@link Metrics#evaluate} takes them. */
    public static Map<String, List<String>> ids(Map<String, List<ScoredDoc>> run) {
        Map<String, List<String>> ids = new LinkedHashMap<>();
        run.forEach((q, docs) -> ids.put(q, docs.stream().map(ScoredDoc::id).toList()));
        return ids;
    }
}
