/**
 * The system of record: namespaces, documents, chunks with their embeddings, and the change
 * sequence that every derived index (Lucene, dense, graphs, memory tables, transcript and key/value
 * search) follows through the store's one catch-up loop, {@link dev.cairn.store.ChangeLog}.
 *
 * <p>Two backends behind {@link dev.cairn.store.Store}: embedded (SQLite, the default) and
 * PostgreSQL with pgvector. On open both apply the versioned SQL migrations that each module on the
 * class path contributes through {@link dev.cairn.store.Schema} (this module's own tables, then
 * retrieval's, memory's, agents', judge's). Every table has a {@code namespace} column and every
 * query filters on it.
 *
 * <p>Dense similarity is cosine: {@code cos(a, b) = a.b / (|a| |b|)}; pgvector's {@code <=>}
 * operator answers the distance {@code 1 - cos(a, b)}. Approximate search uses HNSW (Malkov and
 * Yashunin, "Efficient and robust approximate nearest neighbor search using Hierarchical Navigable
 * Small World graphs", 2016) through pgvector's {@code vector_cosine_ops} index.
 */
package dev.cairn.store;
