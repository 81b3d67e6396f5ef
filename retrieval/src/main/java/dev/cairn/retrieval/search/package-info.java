/**
 * The one hybrid search core under retrieve, memory recall, transcript search and key/value search:
 * each caller hands {@link dev.cairn.retrieval.search.HybridSearch} its signals (lexical
 * candidates, dense candidates, for retrieve the graph), which run concurrently under their
 * deadlines; the {@link dev.cairn.retrieval.search.SignalRun} says how each fared and fuses the
 * answers with {@link dev.cairn.retrieval.fusion} (weighted RRF or a convex combination), every
 * fused candidate keeping its per-signal ranks and raw scores. What is particular to a caller stays
 * with it: retrieve's supersession, filters and grounding, recall's eligibility, cosine threshold
 * and {@code RecallScorer}.
 */
package dev.cairn.retrieval.search;
