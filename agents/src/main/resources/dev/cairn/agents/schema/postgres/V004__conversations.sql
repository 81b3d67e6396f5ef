-- Conversations (ARK Memory API), their messages and Orloj key/value entries.
-- Until the module split this file also created the proposals table (now the memory
-- module's V007); a database that applied that text is accepted:
-- previous-checksum: 8e22e23137b8eb700338762e82e953ba6e14a1b4bce55ad512aef1ef52458a77
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
