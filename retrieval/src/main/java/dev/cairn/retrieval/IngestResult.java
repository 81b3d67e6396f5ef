package dev.cairn.retrieval;

/** What an ingest wrote: the document id, its new version and how many chunks it has. */
public record IngestResult(String id, long version, int chunks) {}
