/**
 * The one exact nearest-vector scan every module uses: {@link
 * dev.cairn.store.vector.NearestVectors} over any collection of vectors, {@link
 * dev.cairn.store.vector.TopK} for a stream of scores, both best first with ties by id ascending,
 * so two scans of the same vectors agree on every split.
 *
 * <p>The similarity is a parameter ({@link dev.cairn.store.vector.Similarity}): this module has no
 * SIMD dot product (Lucene's needs the Vector API), so the modules above pass Lucene's ({@code
 * dev.cairn.retrieval.dense.UnitVectors}) and the embedded store passes its own cosine.
 */
package dev.cairn.store.vector;
