-- Recall's adaptations (issue 42): query adapters and judged-relevant priors trained from a
-- namespace's memory judgments, the same columns as retrieval_adaptations (retrieve's, trained from
-- document and chunk judgments); versions are numbered per namespace, at most one active.

CREATE TABLE memory_adaptations (
    namespace    text COLLATE "C" NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    version      integer NOT NULL,
    state        text NOT NULL,
    replaces     integer,
    dense_weight double precision NOT NULL,
    dimensions   integer NOT NULL,
    matrix       bytea NOT NULL,
    report       jsonb NOT NULL,
    created_at   timestamptz NOT NULL,
    prior_weight double precision NOT NULL DEFAULT 0,
    prior        jsonb NOT NULL DEFAULT '{}',
    PRIMARY KEY (namespace, version)
);
