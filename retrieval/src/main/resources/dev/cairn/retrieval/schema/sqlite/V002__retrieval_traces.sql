-- Retrieval traces: what a retrieve call saw and answered, for GET traces/{id} and the judge.

CREATE TABLE retrieval_traces (
    namespace  TEXT NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    id         TEXT NOT NULL,
    query      TEXT NOT NULL,
    request    TEXT NOT NULL,
    grounding  REAL NOT NULL,
    plan       TEXT NOT NULL,
    timings    TEXT NOT NULL,
    signals    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE INDEX retrieval_traces_created ON retrieval_traces (namespace, created_at);

CREATE TABLE retrieval_trace_hits (
    namespace   TEXT NOT NULL,
    trace_id    TEXT NOT NULL,
    position    INTEGER NOT NULL,
    chunk_id    TEXT NOT NULL,
    document_id TEXT NOT NULL,
    fused       REAL NOT NULL,
    ranks       TEXT NOT NULL,
    scores      TEXT NOT NULL,
    selected    INTEGER NOT NULL,
    title       TEXT NOT NULL,
    heading     TEXT NOT NULL,
    text        TEXT NOT NULL,
    authority   TEXT NOT NULL,
    PRIMARY KEY (namespace, trace_id, position),
    FOREIGN KEY (namespace, trace_id) REFERENCES retrieval_traces (namespace, id) ON DELETE CASCADE
);
