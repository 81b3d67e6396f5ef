-- Recall's adaptations (issue 42): query adapters and judged-relevant priors trained from a
-- namespace's memory judgments, the same columns as retrieval_adaptations (retrieve's, trained from
-- document and chunk judgments); versions are numbered per namespace, at most one active.

CREATE TABLE memory_adaptations (
    namespace    TEXT NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    version      INTEGER NOT NULL,
    state        TEXT NOT NULL,
    replaces     INTEGER,
    dense_weight REAL NOT NULL,
    dimensions   INTEGER NOT NULL,
    matrix       BLOB NOT NULL,
    report       TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    prior_weight REAL NOT NULL DEFAULT 0,
    prior        TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (namespace, version)
);
