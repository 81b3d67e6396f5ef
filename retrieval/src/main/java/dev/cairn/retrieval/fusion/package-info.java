/**
 * Rank fusion of the lexical, dense and graph signals: weighted reciprocal-rank fusion (the
 * default, Cormack et al. SIGIR 2009) and convex combination of normalised scores (Bruch et al.
 * TOIS 2023). Every fused candidate keeps its per-signal ranks and raw scores.
 */
package dev.cairn.retrieval.fusion;
