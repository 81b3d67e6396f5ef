-- Judge: answers submitted for judging (answer_traces), their judgements (answer_judgements)
-- and the namespace's registered policy documents (judge_policies).

CREATE TABLE answer_traces (
    namespace  text COLLATE "C" NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    id         text COLLATE "C" NOT NULL,
    trace_id   text COLLATE "C" NOT NULL,
    query      text NOT NULL,
    answer     text NOT NULL,
    evidence   jsonb NOT NULL,
    policy     text NOT NULL,
    plan       text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE INDEX answer_traces_created ON answer_traces (namespace, created_at);

CREATE TABLE answer_judgements (
    namespace          text COLLATE "C" NOT NULL,
    id                 text COLLATE "C" NOT NULL,
    answer_id          text COLLATE "C" NOT NULL,
    judgement          jsonb NOT NULL,
    citation_coverage  double precision NOT NULL,
    citation_precision double precision NOT NULL,
    contradiction_rate double precision NOT NULL,
    policy_compliance  double precision NOT NULL,
    grounded           boolean NOT NULL,
    similarity         text NOT NULL,
    created_at         timestamptz NOT NULL,
    PRIMARY KEY (namespace, id),
    FOREIGN KEY (namespace, answer_id) REFERENCES answer_traces (namespace, id) ON DELETE CASCADE
);

CREATE INDEX answer_judgements_answer ON answer_judgements (namespace, answer_id);

CREATE TABLE judge_policies (
    namespace  text COLLATE "C" NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    name       text COLLATE "C" NOT NULL,
    document   text NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (namespace, name)
);
