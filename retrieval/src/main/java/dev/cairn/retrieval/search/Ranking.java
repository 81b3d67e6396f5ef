package dev.cairn.retrieval.search;

import dev.cairn.retrieval.fusion.ScoredId;
import dev.cairn.retrieval.lexical.LexicalHit;
import dev.cairn.store.vector.Similarity;
import dev.cairn.store.vector.VectorHit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A signal's answer: its candidates best first (rank = position + 1) with raw scores, and, for a
 * signal that can score any candidate (dense: a cosine for every vector it holds), the scores of
 * candidates it did not rank, so a fusion over scores sees them ({@link SignalRun#completed()}).
 * Implementations are immutable and thread-safe.
 */
public interface Ranking {

    /** The ranked candidates, best first, ids distinct. */
    List<ScoredId> entries();

    /**
     * This signal's raw scores of {@code ids} it did not rank, for those it can score; none by
     * default.
     */
    default List<ScoredId> scoresOf(Collection<String> ids) {
        return List.of();
    }

    /** A ranking that can score nothing beyond its entries. */
    static Ranking of(List<ScoredId> entries) {
        List<ScoredId> copy = List.copyOf(entries);
        return () -> copy;
    }

    /** Lexical hits as a ranking, by chunk id (for an index of one chunk per entry, the entry). */
    static Ranking lexical(List<LexicalHit> hits) {
        List<ScoredId> entries = new ArrayList<>(hits.size());
        for (LexicalHit hit : hits) {
            entries.add(new ScoredId(hit.chunkId(), hit.score()));
        }
        return of(entries);
    }

    /**
     * A ranking of {@code ranked} (best first) that scores any other candidate through {@code
     * scoreOf} (null: it cannot score that one).
     */
    static Ranking scored(List<ScoredId> ranked, Function<String, Double> scoreOf) {
        Objects.requireNonNull(scoreOf, "scoreOf");
        List<ScoredId> entries = List.copyOf(ranked);
        return new Ranking() {
            @Override
            public List<ScoredId> entries() {
                return entries;
            }

            @Override
            public List<ScoredId> scoresOf(Collection<String> ids) {
                List<ScoredId> out = new ArrayList<>();
                for (String id : ids) {
                    Double score = scoreOf.apply(id);
                    if (score != null) {
                        out.add(new ScoredId(id, score));
                    }
                }
                return out;
            }
        };
    }

    /**
     * A nearest-vector scan's answer; it scores other candidates by the same {@code similarity} to
     * {@code query}, through {@code vectorOf} (null, or a vector of another length: not scored).
     */
    static Ranking dense(
            List<VectorHit> hits,
            float[] query,
            Similarity similarity,
            Function<String, float[]> vectorOf) {
        Objects.requireNonNull(similarity, "similarity");
        Objects.requireNonNull(vectorOf, "vectorOf");
        float[] q = query.clone();
        List<ScoredId> entries = new ArrayList<>(hits.size());
        for (VectorHit hit : hits) {
            entries.add(new ScoredId(hit.id(), hit.score()));
        }
        return scored(
                entries,
                id -> {
                    float[] v = vectorOf.apply(id);
                    return v != null && v.length == q.length ? similarity.score(q, v) : null;
                });
    }
}
