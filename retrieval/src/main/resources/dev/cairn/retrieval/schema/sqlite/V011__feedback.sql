-- Relevance judgments a namespace's users, evaluators and the judge recorded (POST feedback), and
-- the query adapters trained from them (POST adaptation/train): at most one active per namespace.

CREATE TABLE retrieval_feedback (
    namespace   TEXT NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    query       TEXT NOT NULL,
    target_kind TEXT NOT NULL,
    target_id   TEXT NOT NULL,
    grade       INTEGER NOT NULL,
    source      TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE TABLE retrieval_adaptations (
    namespace  TEXT NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    state      TEXT NOT NULL,
    replaces   INTEGER,
    dense_weight REAL NOT NULL,
    dimensions INTEGER NOT NULL,
    matrix     BLOB NOT NULL,
    report     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (namespace, version)
);
