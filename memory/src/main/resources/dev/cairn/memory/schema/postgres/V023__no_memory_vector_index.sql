-- The memories' HNSW index (V003) is dropped: recall scans each namespace's resident table and
-- never asks PostgreSQL for nearest memories, and one index over every namespace cannot answer a
-- namespace's nearest anyway (its filtered scan stops before it meets enough of the namespace's
-- rows: 27% of the exact top 100 at 10,000 memories, 1% at 1,000; docs/operations.md, "pgvector
-- for memory dense search"). Keeping it up to date made every memory write pay an HNSW insert:
-- 20,000 rows of 384 dimensions in 103 s with it against 1.4 s without (2-core machine).

DROP INDEX IF EXISTS memories_embedding_hnsw;
