-- Conversations (ARK Memory API), their messages and Orloj key/value entries.
-- Until the module split this file also created the proposals table (now the memory
-- module's V007); a database that applied that text is accepted:
-- previous-checksum: 1c274ec3397cd8bc8fedfafa47faf35b952f82dac831f52c79609e0ceae7f27a
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
