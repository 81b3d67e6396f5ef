-- Documents and their chunks with embeddings (the retrieval module's tables).
-- Until issue 46 the store's V001 created both tables and this migration only added
-- ingest_key; a database that applied that text is accepted:
-- previous-checksum: 6740224801a7526403dade8372d66b4e102e180f6fe7af6bea97d494ed51966a
-- A database made before this version has both tables already (IF NOT EXISTS leaves them as
-- they are) and gains ingest_key here, as it did then; a new one creates them here.
-- ingest_key: the key of the input a document was ingested from (parsed document, chunking,
-- model), so an interrupted bulk ingest run again skips what it already stored instead of
-- embedding it again.

CREATE TABLE IF NOT EXISTS documents (
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

CREATE TABLE IF NOT EXISTS chunks (
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
CREATE INDEX IF NOT EXISTS chunks_embedding_hnsw ON chunks USING hnsw (embedding vector_cosine_ops);

ALTER TABLE documents ADD COLUMN ingest_key text NOT NULL DEFAULT '';
