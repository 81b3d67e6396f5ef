/**
 * The system of record: namespaces, documents, chunks with their embeddings, and the change
 * sequence that derived indexes (Lucene, graphs) catch up from.
 *
 * <p>Two backends behind {@link dev.cairn.store.Store}: embedded (SQLite, the default) and
 * PostgreSQL with pgvector. Both apply versioned SQL migrations from the resources {@code
 * dev/cairn/retrieval/store/<backend>/} on open. Every table has a {@code namespace} column and
 * every query filters on it.
 *
 * <p>Dense similarity is cosine: {@code cos(a, b) = a.b / (|a| |b|)}; pgvector's {@code <=>}
 * operator answers the distance {@code 1 - cos(a, b)}. Approximate search uses HNSW (Malkov and
 * Yashunin, "Efficient and robust approximate nearest neighbor search using Hierarchical Navigable
 * Small World graphs", 2016) through pgvector's {@code vector_cosine_ops} index.
 */
package dev.cairn.store;
