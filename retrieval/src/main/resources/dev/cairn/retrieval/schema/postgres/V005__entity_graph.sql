-- Entity graph (issue 5). Declared entities and front matter relations are written on ingest;
-- extracted entities, text relations and chunk links are written by the catch-up that applies a
-- document's change, keyed by document so a re-ingest replaces them. Relations from
-- POST relations have source 'api' and document_id '' and come with a RELATION change row.

CREATE TABLE knowledge_entities (
    namespace   text COLLATE "C" NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    document_id text COLLATE "C" NOT NULL,
    entity_id   text COLLATE "C" NOT NULL,
    name        text NOT NULL,
    kind        text NOT NULL,
    aliases     text NOT NULL,
    source      text NOT NULL,
    PRIMARY KEY (namespace, document_id, source, entity_id)
);

CREATE INDEX knowledge_entities_entity ON knowledge_entities (namespace, entity_id);

CREATE TABLE knowledge_relations (
    namespace   text COLLATE "C" NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    id          text COLLATE "C" NOT NULL,
    document_id text COLLATE "C" NOT NULL,
    source      text NOT NULL,
    from_kind   text NOT NULL,
    from_id     text COLLATE "C" NOT NULL,
    to_kind     text NOT NULL,
    to_id       text COLLATE "C" NOT NULL,
    type        text NOT NULL,
    confidence  double precision NOT NULL,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (namespace, id)
);

CREATE INDEX knowledge_relations_document ON knowledge_relations (namespace, document_id, source);

CREATE TABLE knowledge_chunk_entities (
    namespace   text COLLATE "C" NOT NULL REFERENCES namespaces (name) ON DELETE CASCADE,
    document_id text COLLATE "C" NOT NULL,
    chunk_id    text COLLATE "C" NOT NULL,
    entity_id   text COLLATE "C" NOT NULL,
    mentions    integer NOT NULL,
    PRIMARY KEY (namespace, chunk_id, entity_id)
);

CREATE INDEX knowledge_chunk_entities_document ON knowledge_chunk_entities (namespace, document_id);
CREATE INDEX knowledge_chunk_entities_entity ON knowledge_chunk_entities (namespace, entity_id);
