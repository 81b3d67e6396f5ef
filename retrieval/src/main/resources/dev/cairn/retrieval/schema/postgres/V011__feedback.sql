-- Relevance judgments a namespace's users, evaluators and the judge recorded (POST feedback), and
-- the query adapters trained from them (POST adaptation/train): at most one active per namespace.

CREATE TABLE retrieval_feedback (
    namespace   text COLLATE "C" NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    id          text COLLATE "C" NOT NULL,
    query       text NOT NULL,
    target_kind text NOT NULL,
    target_id   text COLLATE "C" NOT NULL,
    grade       integer NOT NULL,
    source      text NOT NULL,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE TABLE retrieval_adaptations (
    namespace  text COLLATE "C" NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    version    integer NOT NULL,
    state      text NOT NULL,
    replaces   integer,
    dense_weight double precision NOT NULL,
    dimensions integer NOT NULL,
    matrix     bytea NOT NULL,
    report     jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (namespace, version)
);
