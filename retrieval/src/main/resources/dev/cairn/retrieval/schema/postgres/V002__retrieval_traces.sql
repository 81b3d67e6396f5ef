-- Retrieval traces: what a retrieve call saw and answered, for GET traces/{id} and the judge.

CREATE TABLE retrieval_traces (
    namespace  text COLLATE "C" NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    id         text COLLATE "C" NOT NULL,
    query      text NOT NULL,
    request    jsonb NOT NULL,
    grounding  double precision NOT NULL,
    plan       text NOT NULL,
    timings    jsonb NOT NULL,
    signals    jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE INDEX retrieval_traces_created ON retrieval_traces (namespace, created_at);

CREATE TABLE retrieval_trace_hits (
    namespace   text COLLATE "C" NOT NULL,
    trace_id    text COLLATE "C" NOT NULL,
    position    integer NOT NULL,
    chunk_id    text COLLATE "C" NOT NULL,
    document_id text COLLATE "C" NOT NULL,
    fused       double precision NOT NULL,
    ranks       jsonb NOT NULL,
    scores      jsonb NOT NULL,
    selected    boolean NOT NULL,
    title       text NOT NULL,
    heading     text NOT NULL,
    text        text NOT NULL,
    authority   text NOT NULL,
    PRIMARY KEY (namespace, trace_id, position),
    FOREIGN KEY (namespace, trace_id) REFERENCES retrieval_traces (namespace, id) ON DELETE CASCADE
);
