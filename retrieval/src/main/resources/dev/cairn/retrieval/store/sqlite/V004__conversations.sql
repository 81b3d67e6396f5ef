-- Conversations (ARK Memory API), their messages, Orloj key/value entries and proposals.
-- Timestamps are epoch milliseconds. Messages keep their JSON exactly as stored (text), with
-- the role and text content extracted for search; sequence numbers are per namespace.

CREATE TABLE conversations (
    namespace  TEXT NOT NULL,
    id         TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE TABLE message_sequences (
    namespace TEXT PRIMARY KEY,
    last_seq  INTEGER NOT NULL
);

CREATE TABLE messages (
    namespace       TEXT NOT NULL,
    seq             INTEGER NOT NULL,
    conversation_id TEXT NOT NULL,
    query_id        TEXT NOT NULL,
    message         TEXT NOT NULL,
    role            TEXT NOT NULL,
    content         TEXT NOT NULL,
    flagged         INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER,
    PRIMARY KEY (namespace, seq)
);

CREATE INDEX messages_conversation ON messages (namespace, conversation_id, seq);
CREATE INDEX messages_query ON messages (namespace, query_id, seq);

CREATE TABLE kv_entries (
    namespace  TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      TEXT NOT NULL,
    flagged    INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (namespace, key)
);

CREATE TABLE proposals (
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

CREATE INDEX proposals_status ON proposals (namespace, status, created_at);
