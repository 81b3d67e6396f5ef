-- A stored trace keeps what the inline one shows for each candidate: whether the request's
-- filters removed it, Lucene's explanation when asked for, and the graph signal's path to it.

ALTER TABLE retrieval_trace_hits ADD COLUMN filtered_out INTEGER NOT NULL DEFAULT 0;
ALTER TABLE retrieval_trace_hits ADD COLUMN explanation TEXT NOT NULL DEFAULT '';
ALTER TABLE retrieval_trace_hits ADD COLUMN graph_path TEXT NOT NULL DEFAULT '[]';
