/**
 * Hybrid (lexical + dense) search over short texts that live in SQL tables of the agents module:
 * conversation messages for transcript search and key/value entries for Orloj's provider.
 *
 * <h2>Formula</h2>
 *
 * BM25 ranks from Lucene ({@link dev.cairn.retrieval.lexical.LexicalIndex}, in memory) and cosine
 * ranks over the {@link dev.cairn.embeddings.EmbeddingModel}'s vectors (exact, in memory) are fused
 * with weighted reciprocal-rank fusion, {@code score(d) = sum_s w_s / (k + rank_s(d))}, {@code k =
 * 60}, weights 1 and 1 (Cormack et al., SIGIR 2009). Without a model only BM25 ranks count. Each
 * namespace's index is derived data, loaded from its table on first search and kept current from
 * the store's change log by a {@link dev.cairn.agents.search.TextIndexFollower}.
 */
package dev.cairn.agents.search;
