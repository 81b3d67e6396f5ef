/**
 * Dense retrieval: cosine similarity between L2-normalised query and chunk embeddings (so cosine is
 * the dot product). PostgreSQL answers through pgvector ({@code PgvectorDenseIndex}: HNSW, or an
 * exact scan for small namespaces); the embedded store through an in-process exact index, or a
 * Lucene HNSW graph for large namespaces, kept current from the store's change sequence.
 *
 * <p>Cosine is {@code cos(a, b) = a.b / (|a| |b|)}; pgvector's {@code <=>} operator answers the
 * distance {@code 1 - cos(a, b)}. Approximate search uses HNSW (Malkov and Yashunin, "Efficient and
 * robust approximate nearest neighbor search using Hierarchical Navigable Small World graphs",
 * 2016), through pgvector's {@code vector_cosine_ops} index or Lucene's HNSW graph.
 */
package dev.cairn.retrieval.dense;
