-- The key of the input a document was ingested from (parsed document, chunking, model), so an
-- interrupted bulk ingest run again skips what it already stored instead of embedding it again.

ALTER TABLE documents ADD COLUMN ingest_key TEXT NOT NULL DEFAULT '';
