package dev.cairn.retrieval;

/**
 * What an ingest did with one document.
 *
 * @param id the document id
 * @param version its version after the ingest
 * @param chunks how many chunks it has
 * @param unchanged true when the ingest skipped it, stored already from the same input
 */
public record IngestResult(String id, long version, int chunks, boolean unchanged) {}
