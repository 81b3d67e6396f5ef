-- Foundation: settings, namespaces, change sequence.
-- Until issue 46 this file also created the documents and chunks tables (now the retrieval
-- module's V010); a database that applied that text is accepted:
-- previous-checksum: 0161a1894c68b00c4ab0df0b95951e52a49bde14cd46468e265650edab018f65
-- Timestamps are epoch milliseconds.

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

CREATE TABLE changes (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace TEXT NOT NULL,
    kind      TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    op        TEXT NOT NULL,
    at        INTEGER NOT NULL
);

CREATE INDEX changes_namespace_seq ON changes (namespace, seq);
