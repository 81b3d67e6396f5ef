package dev.cairn.retrieval.lexical;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.util.BytesRef;

/**
 * The deterministic top of a {@link LuceneLexicalIndex} search: the best hits by score, ties by
 * chunk id, whatever the segment layout, and the doc-values strings of the hits. Stateless and
 * thread-safe (the searcher is the caller's).
 */
final class ChunkTopDocs {

    private ChunkTopDocs() {}

    /**
     * The best hits in order with the chunk id of each ({@code chunkIds[i]} is {@code docs[i]}'s):
     * the ordering reads them anyway, so the caller need not read them again.
     */
    record Top(ScoreDoc[] docs, String[] chunkIds) {}

    /**
     * The best {@code n} documents by score descending, then chunk id ascending. Fast path:
     * Lucene's top-score collection (block-max WAND) of {@code n + 1} hits, re-ordered within equal
     * scores; exact because no tie crosses the cut. When the {@code n}th and {@code n+1}th scores
     * tie, a full sort by (score, chunk id) decides which of the tied chunks make the cut.
     */
    static Top best(IndexSearcher searcher, Query q, int n) throws IOException {
        ScoreDoc[] fast = searcher.search(q, n + 1).scoreDocs;
        if (fast.length <= n || fast[n].score < fast[n - 1].score) {
            ScoreDoc[] top = Arrays.copyOf(fast, Math.min(n, fast.length));
            String[] keys = values(searcher, top, LuceneLexicalIndex.FIELD_CHUNK_ID);
            Integer[] order = new Integer[top.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(
                    order,
                    (a, b) -> {
                        int c = Float.compare(top[b].score, top[a].score);
                        return c != 0 ? c : keys[a].compareTo(keys[b]);
                    });
            ScoreDoc[] sorted = new ScoreDoc[top.length];
            String[] sortedKeys = new String[top.length];
            for (int i = 0; i < order.length; i++) {
                sorted[i] = top[order[i]];
                sortedKeys[i] = keys[order[i]];
            }
            return new Top(sorted, sortedKeys);
        }
        Sort sort =
                new Sort(
                        SortField.FIELD_SCORE,
                        new SortField(LuceneLexicalIndex.FIELD_CHUNK_ID, SortField.Type.STRING));
        ScoreDoc[] sorted = searcher.search(q, n, sort, true).scoreDocs;
        // the sort's second field is the chunk id itself
        String[] keys = new String[sorted.length];
        for (int i = 0; i < sorted.length; i++) {
            keys[i] = ((BytesRef) ((FieldDoc) sorted[i]).fields[1]).utf8ToString();
        }
        return new Top(sorted, keys);
    }

    /** The doc-values string of {@code field} for each hit, in the order of {@code hits}. */
    static String[] values(IndexSearcher searcher, ScoreDoc[] hits, String field)
            throws IOException {
        // Doc-values iterators only move forward: visit hits in doc id order.
        Integer[] byDoc = new Integer[hits.length];
        for (int i = 0; i < byDoc.length; i++) {
            byDoc[i] = i;
        }
        Arrays.sort(byDoc, (a, b) -> Integer.compare(hits[a].doc, hits[b].doc));
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        String[] out = new String[hits.length];
        int leafIndex = -1;
        SortedDocValues dv = null;
        LeafReaderContext leaf = null;
        for (int i : byDoc) {
            int doc = hits[i].doc;
            int li = ReaderUtil.subIndex(doc, leaves);
            if (li != leafIndex) {
                leafIndex = li;
                leaf = leaves.get(li);
                dv = DocValues.getSorted(leaf.reader(), field);
            }
            if (!dv.advanceExact(doc - leaf.docBase)) {
                throw new IllegalStateException("chunk without " + field + " in lexical index");
            }
            out[i] = dv.lookupOrd(dv.ordValue()).utf8ToString();
        }
        return out;
    }
}
