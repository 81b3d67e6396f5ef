-- Conversations (ARK Memory API), their messages, Orloj key/value entries and proposals.
-- Messages keep their JSON exactly as stored (text, not jsonb, which would reorder keys), with
-- the role and text content extracted for search; sequence numbers are per namespace.

CREATE TABLE conversations (
    namespace  text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE TABLE message_sequences (
    namespace text COLLATE "C" PRIMARY KEY,
    last_seq  bigint NOT NULL
);

CREATE TABLE messages (
    namespace       text COLLATE "C" NOT NULL,
    seq             bigint NOT NULL,
    conversation_id text COLLATE "C" NOT NULL,
    query_id        text COLLATE "C" NOT NULL,
    message         text NOT NULL,
    role            text NOT NULL,
    content         text NOT NULL,
    flagged         boolean NOT NULL,
    created_at      timestamptz NOT NULL,
    expires_at      timestamptz,
    PRIMARY KEY (namespace, seq)
);

CREATE INDEX messages_conversation ON messages (namespace, conversation_id, seq);
CREATE INDEX messages_query ON messages (namespace, query_id, seq);

CREATE TABLE kv_entries (
    namespace  text COLLATE "C" NOT NULL,
    key        text COLLATE "C" NOT NULL,
    value      text NOT NULL,
    flagged    boolean NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (namespace, key)
);

CREATE TABLE proposals (
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

CREATE INDEX proposals_status ON proposals (namespace, status, created_at);
