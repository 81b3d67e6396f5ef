/**
 * Cairn retrieval: documents, chunks, BM25, dense search, fusion, evaluation and storage.
 *
 * <h2>Formulas</h2>
 *
 * <ul>
 *   <li><b>BM25</b> (Robertson and Zaragoza, 2009; Lucene's {@code BM25Similarity}, which drops the
 *       constant {@code (k1 + 1)} factor): {@code score(q, d) = sum_{t in q} idf(t) * tf / (tf + k1
 *       * (1 - b + b * |d| / avgdl))}, {@code idf(t) = ln(1 + (N - n_t + 0.5) / (n_t + 0.5))};
 *       {@code N, n_t, avgdl} are per namespace (one Lucene index per namespace). Defaults {@code
 *       k1 = 0.9, b = 0.4} (Anserini's; a grid on SciFact train found nothing better by more than
 *       0.002 nDCG@10). See {@link dev.cairn.retrieval.lexical}.
 *   <li><b>Weighted reciprocal-rank fusion</b> (Cormack, Clarke and Buettcher, SIGIR 2009): {@code
 *       score(d) = sum_s w_s / (k + rank_s(d))}, ranks 1-based, {@code k = 60}; signals that did
 *       not return {@code d} add nothing. See {@link dev.cairn.retrieval.fusion.Fusion}.
 *   <li><b>Convex combination</b> (Bruch, Gai and Ingber, TOIS 2023): {@code score(d) = sum_s w_s *
 *       norm_s(d) / sum_s w_s}, {@code norm_s(d) = (s_d - m_s) / (max_s - m_s)} with {@code m_s}
 *       the signal's theoretical minimum (default) or its observed minimum; 0 where absent.
 *   <li><b>Document score from chunks</b>: the maximum over the document's chunks.
 *   <li><b>Evaluation</b> (as trec_eval, relevance level 1): {@code nDCG@10 = DCG@10 / IDCG@10},
 *       {@code DCG@k = sum_{i<=k} rel_i / log2(i + 1)} (linear gain); {@code Recall@100} = relevant
 *       in the top 100 / relevant; {@code MRR@10} = 1 / rank of the first relevant document in the
 *       top 10, else 0. Means over the queries that have judgments. See {@link
 *       dev.cairn.eval.beir.Metrics}.
 * </ul>
 *
 * <p>Ties are always broken by score descending, then id ascending.
 */
package dev.cairn.retrieval;
