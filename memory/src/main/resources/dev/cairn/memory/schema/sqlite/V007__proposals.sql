-- Proposals of memories, policies, workflows and skills, reviewed before they apply.
-- IF NOT EXISTS: databases created before the module split made this table in V004.

CREATE TABLE IF NOT EXISTS proposals (
    namespace         TEXT NOT NULL,
    id                TEXT NOT NULL,
    type              TEXT NOT NULL,
    title             TEXT NOT NULL,
    description       TEXT NOT NULL,
    content           TEXT NOT NULL,
    task_name         TEXT NOT NULL,
    agent_name        TEXT NOT NULL,
    status            TEXT NOT NULL,
    flagged           INTEGER NOT NULL,
    reviewer          TEXT NOT NULL,
    review_note       TEXT NOT NULL,
    reviewed_at       INTEGER,
    applied_memory_id TEXT NOT NULL,
    applied_by        TEXT NOT NULL,
    applied_at        INTEGER,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE INDEX IF NOT EXISTS proposals_status ON proposals (namespace, status, created_at);
