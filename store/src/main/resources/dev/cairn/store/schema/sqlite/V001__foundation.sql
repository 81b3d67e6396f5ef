-- Foundation: settings, namespaces, documents, chunks with embeddings, change sequence.
-- Timestamps are epoch milliseconds; tags, metadata and heading paths are JSON text;
-- embeddings are little-endian float32 blobs (NULL when not embedded).

CREATE TABLE store_settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

INSERT INTO store_settings (key, value) VALUES ('dimensions', '${dimensions}');

CREATE TABLE namespaces (
    name        TEXT PRIMARY KEY,
    description TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);

CREATE TABLE documents (
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

CREATE TABLE chunks (
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

CREATE TABLE changes (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace TEXT NOT NULL,
    kind      TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    op        TEXT NOT NULL,
    at        INTEGER NOT NULL
);

CREATE INDEX changes_namespace_seq ON changes (namespace, seq);
