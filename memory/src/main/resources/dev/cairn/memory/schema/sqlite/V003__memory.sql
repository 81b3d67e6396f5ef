-- Typed agent memories (issue 6) and their status history. Owned by dev.cairn.memory.store.
-- Timestamps are epoch milliseconds; tags are JSON text; flags are 0/1; embeddings are
-- little-endian float32 blobs (NULL when not embedded).

CREATE TABLE memories (
    namespace        TEXT NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    id               TEXT NOT NULL,
    user_id          TEXT NOT NULL,
    agent_id         TEXT NOT NULL,
    session_name     TEXT NOT NULL,
    task_name        TEXT NOT NULL,
    parent_task      TEXT NOT NULL,
    type             TEXT NOT NULL,
    layer            TEXT NOT NULL,
    status           TEXT NOT NULL,
    content          TEXT NOT NULL,
    content_hash     TEXT NOT NULL,
    tags             TEXT NOT NULL,
    confidence       REAL NOT NULL,
    importance       REAL NOT NULL,
    conflict_key     TEXT NOT NULL,
    source_kind      TEXT NOT NULL,
    source_ref       TEXT NOT NULL,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL,
    expires_at       INTEGER NOT NULL,
    last_recalled_at INTEGER NOT NULL,
    recalled_count   INTEGER NOT NULL,
    disabled         INTEGER NOT NULL,
    deleted          INTEGER NOT NULL,
    embedding        BLOB,
    embedding_model  TEXT NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE INDEX memories_hash ON memories (namespace, content_hash);
CREATE INDEX memories_conflict ON memories (namespace, conflict_key);
CREATE INDEX memories_user ON memories (namespace, user_id, id);
CREATE INDEX memories_expiry ON memories (namespace, status, expires_at);

CREATE TABLE memory_transitions (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace   TEXT NOT NULL,
    memory_id   TEXT NOT NULL,
    from_status TEXT NOT NULL,
    to_status   TEXT NOT NULL,
    at          INTEGER NOT NULL,
    actor       TEXT NOT NULL,
    reason      TEXT NOT NULL,
    FOREIGN KEY (namespace, memory_id) REFERENCES memories (namespace, id) ON DELETE CASCADE
);

CREATE INDEX memory_transitions_memory ON memory_transitions (namespace, memory_id, seq);
