package dev.cairn.retrieval;

/** Whether an ingest skips documents stored already from the same input. */
public enum IngestMode {
    /** Always write a new version: an API write that says "store this". */
    REPLACE,
    /**
     * Skip a document stored under the same ingest key (same parsed input, chunking and model):
     * bulk ingests, so that one interrupted and run again resumes where it stopped, locally and,
     * through {@code POST documents?skipUnchanged=true}, one document at a time through a server.
     */
    SKIP_UNCHANGED
}
