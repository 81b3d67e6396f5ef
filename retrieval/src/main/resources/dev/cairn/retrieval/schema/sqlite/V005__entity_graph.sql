-- Entity graph (issue 5). Declared entities and front matter relations are written on ingest;
-- extracted entities, text relations and chunk links are written by the catch-up that applies a
-- document's change, keyed by document so a re-ingest replaces them. Relations from
-- POST relations have source 'api' and document_id '' and come with a RELATION change row.

CREATE TABLE knowledge_entities (
    namespace   TEXT NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    document_id TEXT NOT NULL,
    entity_id   TEXT NOT NULL,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL,
    aliases     TEXT NOT NULL,
    source      TEXT NOT NULL,
    PRIMARY KEY (namespace, document_id, source, entity_id)
);

CREATE INDEX knowledge_entities_entity ON knowledge_entities (namespace, entity_id);

CREATE TABLE knowledge_relations (
    namespace   TEXT NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    document_id TEXT NOT NULL,
    source      TEXT NOT NULL,
    from_kind   TEXT NOT NULL,
    from_id     TEXT NOT NULL,
    to_kind     TEXT NOT NULL,
    to_id       TEXT NOT NULL,
    type        TEXT NOT NULL,
    confidence  REAL NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE INDEX knowledge_relations_document ON knowledge_relations (namespace, document_id, source);

CREATE TABLE knowledge_chunk_entities (
    namespace   TEXT NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    document_id TEXT NOT NULL,
    chunk_id    TEXT NOT NULL,
    entity_id   TEXT NOT NULL,
    mentions    INTEGER NOT NULL,
    PRIMARY KEY (namespace, chunk_id, entity_id)
);

CREATE INDEX knowledge_chunk_entities_document ON knowledge_chunk_entities (namespace, document_id);
CREATE INDEX knowledge_chunk_entities_entity ON knowledge_chunk_entities (namespace, entity_id);
