-- Documents and their chunks with embeddings (the retrieval module's tables).
-- Until issue 46 the store's V001 created both tables and this migration only added
-- ingest_key; a database that applied that text is accepted:
-- previous-checksum: 7cd6e4c5d4b62726446bb85c15d694cb0c5de89d13c4c03cfbae078db803f0f0
-- A database made before this version has both tables already (IF NOT EXISTS leaves them as
-- they are) and gains ingest_key here, as it did then; a new one creates them here.
-- Timestamps are epoch milliseconds; tags, metadata and heading paths are JSON text;
-- embeddings are little-endian float32 blobs (NULL when not embedded).
-- ingest_key: the key of the input a document was ingested from (parsed document, chunking,
-- model), so an interrupted bulk ingest run again skips what it already stored instead of
-- embedding it again.

CREATE TABLE IF NOT EXISTS documents (
    namespace    TEXT NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    id           TEXT NOT NULL,
    version      INTEGER NOT NULL,
    title        TEXT NOT NULL,
    format       TEXT NOT NULL,
    source       TEXT NOT NULL,
    authority    TEXT NOT NULL,
    tags         TEXT NOT NULL,
    metadata     TEXT NOT NULL,
    content      TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE TABLE IF NOT EXISTS chunks (
    namespace       TEXT NOT NULL,
    id              TEXT NOT NULL,
    document_id     TEXT NOT NULL,
    ordinal         INTEGER NOT NULL,
    heading_path    TEXT NOT NULL,
    text            TEXT NOT NULL,
    token_count     INTEGER NOT NULL,
    embedding       BLOB,
    embedding_model TEXT NOT NULL,
    PRIMARY KEY (namespace, id),
    UNIQUE (namespace, document_id, ordinal),
    FOREIGN KEY (namespace, document_id) REFERENCES documents (namespace, id) ON DELETE CASCADE
);

ALTER TABLE documents ADD COLUMN ingest_key TEXT NOT NULL DEFAULT '';
