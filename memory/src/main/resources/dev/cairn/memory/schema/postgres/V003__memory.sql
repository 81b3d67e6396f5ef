-- Typed agent memories (issue 6) and their status history. Owned by dev.cairn.memory.store.

CREATE TABLE memories (
    namespace        text COLLATE "C" NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    id               text COLLATE "C" NOT NULL,
    user_id          text NOT NULL,
    agent_id         text NOT NULL,
    session_name     text NOT NULL,
    task_name        text NOT NULL,
    parent_task      text NOT NULL,
    type             text NOT NULL,
    layer            text NOT NULL,
    status           text NOT NULL,
    content          text NOT NULL,
    content_hash     text NOT NULL,
    tags             jsonb NOT NULL,
    confidence       double precision NOT NULL,
    importance       double precision NOT NULL,
    conflict_key     text NOT NULL,
    source_kind      text NOT NULL,
    source_ref       text NOT NULL,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    expires_at       timestamptz NOT NULL,
    last_recalled_at timestamptz NOT NULL,
    recalled_count   bigint NOT NULL,
    disabled         boolean NOT NULL,
    deleted          boolean NOT NULL,
    embedding        vector(${dimensions}),
    embedding_model  text NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE INDEX memories_hash ON memories (namespace, content_hash);
CREATE INDEX memories_conflict ON memories (namespace, conflict_key) WHERE conflict_key <> '';
CREATE INDEX memories_user ON memories (namespace, user_id, id);
CREATE INDEX memories_expiry ON memories (namespace, status, expires_at);
-- Approximate cosine search; rows without an embedding are not indexed.
CREATE INDEX memories_embedding_hnsw ON memories USING hnsw (embedding vector_cosine_ops);

CREATE TABLE memory_transitions (
    seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    namespace   text COLLATE "C" NOT NULL,
    memory_id   text COLLATE "C" NOT NULL,
    from_status text NOT NULL,
    to_status   text NOT NULL,
    at          timestamptz NOT NULL,
    actor       text NOT NULL,
    reason      text NOT NULL,
    FOREIGN KEY (namespace, memory_id) REFERENCES memories (namespace, id) ON DELETE CASCADE
);

CREATE INDEX memory_transitions_memory ON memory_transitions (namespace, memory_id, seq);
