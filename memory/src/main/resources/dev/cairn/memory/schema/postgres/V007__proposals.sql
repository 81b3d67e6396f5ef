-- Proposals of memories, policies, workflows and skills, reviewed before they apply.
-- IF NOT EXISTS: databases created before the module split made this table in V004.

CREATE TABLE IF NOT EXISTS proposals (
    namespace         text COLLATE "C" NOT NULL,
    id                text COLLATE "C" NOT NULL,
    type              text NOT NULL,
    title             text NOT NULL,
    description       text NOT NULL,
    content           text NOT NULL,
    task_name         text NOT NULL,
    agent_name        text NOT NULL,
    status            text NOT NULL,
    flagged           boolean NOT NULL,
    reviewer          text NOT NULL,
    review_note       text NOT NULL,
    reviewed_at       timestamptz,
    applied_memory_id text NOT NULL,
    applied_by        text NOT NULL,
    applied_at        timestamptz,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE INDEX IF NOT EXISTS proposals_status ON proposals (namespace, status, created_at);
