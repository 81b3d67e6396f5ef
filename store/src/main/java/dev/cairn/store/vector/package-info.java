/**
 * The one exact nearest-vector scan every module uses: {@link
 * dev.cairn.store.vector.NearestVectors} over any collection of vectors, best first with ties by id
 * ascending (its top-k collector, {@code TopK}, answers the same whatever the order of the offers
 * or the split of a parallel scan), so two scans of the same vectors agree on every split.
 *
 * <p>The similarity is a parameter ({@link dev.cairn.store.vector.Similarity}): this module has no
 * SIMD dot product (Lucene's needs the Vector API), so the modules above pass Lucene's ({@code
 * dev.cairn.retrieval.dense.UnitVectors}). The store has no vector search of its own: retrieval's
 * dense index and memory's recall scan the vectors they keep in memory, and on PostgreSQL retrieval
 * asks pgvector.
 */
package dev.cairn.store.vector;
