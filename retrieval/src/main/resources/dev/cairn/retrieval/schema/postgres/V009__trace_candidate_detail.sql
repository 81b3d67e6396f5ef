-- A stored trace keeps what the inline one shows for each candidate: whether the request's
-- filters removed it, Lucene's explanation when asked for, and the graph signal's path to it.

ALTER TABLE retrieval_trace_hits ADD COLUMN filtered_out boolean NOT NULL DEFAULT false;
ALTER TABLE retrieval_trace_hits ADD COLUMN explanation text NOT NULL DEFAULT '';
ALTER TABLE retrieval_trace_hits ADD COLUMN graph_path jsonb NOT NULL DEFAULT '[]';
