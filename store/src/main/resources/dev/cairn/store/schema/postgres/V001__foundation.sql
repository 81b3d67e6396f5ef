-- Foundation: settings, namespaces, documents, chunks with embeddings, change sequence.

CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE store_settings (
    key   text PRIMARY KEY,
    value text NOT NULL
);

INSERT INTO store_settings (key, value) VALUES ('dimensions', '${dimensions}');

CREATE TABLE namespaces (
    name        text COLLATE "C" PRIMARY KEY,
    description text NOT NULL,
    created_at  timestamptz NOT NULL
);

CREATE TABLE documents (
    namespace    text COLLATE "C" NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    id           text COLLATE "C" NOT NULL,
    version      bigint NOT NULL,
    title        text NOT NULL,
    format       text NOT NULL,
    source       text NOT NULL,
    authority    text NOT NULL,
    tags         jsonb NOT NULL,
    metadata     jsonb NOT NULL,
    content      text NOT NULL,
    content_hash text NOT NULL,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE TABLE chunks (
    namespace       text COLLATE "C" NOT NULL,
    id              text COLLATE "C" NOT NULL,
    document_id     text COLLATE "C" NOT NULL,
    ordinal         integer NOT NULL,
    heading_path    jsonb NOT NULL,
    text            text NOT NULL,
    token_count     integer NOT NULL,
    embedding       vector(${dimensions}),
    embedding_model text NOT NULL,
    PRIMARY KEY (namespace, id),
    UNIQUE (namespace, document_id, ordinal),
    FOREIGN KEY (namespace, document_id) REFERENCES documents (namespace, id) ON DELETE CASCADE
);

-- Approximate cosine search; rows without an embedding are not indexed.
CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding vector_cosine_ops);

CREATE TABLE changes (
    seq       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    namespace text NOT NULL,
    kind      text NOT NULL,
    entity_id text NOT NULL,
    op        text NOT NULL,
    at        timestamptz NOT NULL
);

CREATE INDEX changes_namespace_seq ON changes (namespace, seq);
