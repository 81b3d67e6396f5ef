/**
 * Dense retrieval: cosine similarity between L2-normalised query and chunk embeddings (so cosine is
 * the dot product). PostgreSQL answers through pgvector (HNSW, or an exact scan for small
 * namespaces); the embedded store through an in-process exact index kept current from the store's
 * change sequence.
 */
package dev.cairn.retrieval.dense;
