-- Judge: answers submitted for judging (answer_traces), their judgements (answer_judgements)
-- and the namespace's registered policy documents (judge_policies).

CREATE TABLE answer_traces (
    namespace  TEXT NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    id         TEXT NOT NULL,
    trace_id   TEXT NOT NULL,
    query      TEXT NOT NULL,
    answer     TEXT NOT NULL,
    evidence   TEXT NOT NULL,
    policy     TEXT NOT NULL,
    plan       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE INDEX answer_traces_created ON answer_traces (namespace, created_at);

CREATE TABLE answer_judgements (
    namespace          TEXT NOT NULL,
    id                 TEXT NOT NULL,
    answer_id          TEXT NOT NULL,
    judgement          TEXT NOT NULL,
    citation_coverage  REAL NOT NULL,
    citation_precision REAL NOT NULL,
    contradiction_rate REAL NOT NULL,
    policy_compliance  REAL NOT NULL,
    grounded           INTEGER NOT NULL,
    similarity         TEXT NOT NULL,
    created_at         INTEGER NOT NULL,
    PRIMARY KEY (namespace, id),
    FOREIGN KEY (namespace, answer_id) REFERENCES answer_traces (namespace, id) ON DELETE CASCADE
);

CREATE INDEX answer_judgements_answer ON answer_judgements (namespace, answer_id);

CREATE TABLE judge_policies (
    namespace  TEXT NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    document   TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (namespace, name)
);
