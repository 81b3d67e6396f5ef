/**
 * Ingestion: parsing Markdown (with YAML front matter), plain text and BEIR {@code corpus.jsonl}
 * into {@link dev.cairn.retrieval.ingest.ParsedDocument}s, and heading-aware, token-sized,
 * overlapping chunking ({@link dev.cairn.retrieval.ingest.Chunker}). Invalid UTF-8, binary content
 * and malformed front matter are {@link java.lang.IllegalArgumentException}s naming the line.
 */
package dev.cairn.retrieval.ingest;
