-- A trace's candidates move from a row each in retrieval_trace_hits into one value of the trace's
-- row (TraceEntries: deflated JSON; this conversion writes the same JSON undeflated, which SQL
-- cannot deflate and the reader also takes). 100-200 rows with an index entry each cost the
-- writer more CPU and disk than the trace is worth.

ALTER TABLE retrieval_traces ADD COLUMN entries BLOB NOT NULL DEFAULT x'5b5d';

-- Written as text, not with json_object: SQLite's JSON functions print a REAL with 15 digits,
-- and a candidate's fused score must come back as the same double (17 digits; SQLite's printf
-- gives more than 16 only with its ! flag).
UPDATE retrieval_traces SET entries = CAST('[' || (
    SELECT group_concat(
        '{"position":' || h.position
        || ',"chunkId":' || json_quote(h.chunk_id)
        || ',"documentId":' || json_quote(h.document_id)
        || ',"fused":' || printf('%!.17g', h.fused)
        || ',"ranks":' || h.ranks
        || ',"scores":' || h.scores
        || ',"selected":' || CASE WHEN h.selected THEN 'true' ELSE 'false' END
        || ',"title":' || json_quote(h.title)
        || ',"heading":' || json_quote(h.heading)
        || ',"text":' || json_quote(h.text)
        || ',"authority":' || json_quote(h.authority)
        || ',"filteredOut":' || CASE WHEN h.filtered_out THEN 'true' ELSE 'false' END
        || ',"explanation":' || json_quote(h.explanation)
        || ',"graphPath":' || h.graph_path
        || '}', ',' ORDER BY h.position)
    FROM retrieval_trace_hits h
    WHERE h.namespace = retrieval_traces.namespace AND h.trace_id = retrieval_traces.id) || ']'
    AS BLOB)
WHERE EXISTS (SELECT 1 FROM retrieval_trace_hits h
    WHERE h.namespace = retrieval_traces.namespace AND h.trace_id = retrieval_traces.id);

DROP TABLE retrieval_trace_hits;
