-- Foundation: settings, namespaces, change sequence.
-- Until issue 46 this file also created the documents and chunks tables (now the retrieval
-- module's V010); a database that applied that text is accepted:
-- previous-checksum: 35c5c0e20e13d7be1180f96c45414239b09d6ad4a59cffbbafbeb540595b3cda

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

CREATE TABLE changes (
    seq       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    namespace text NOT NULL,
    kind      text NOT NULL,
    entity_id text NOT NULL,
    op        text NOT NULL,
    at        timestamptz NOT NULL
);

CREATE INDEX changes_namespace_seq ON changes (namespace, seq);
