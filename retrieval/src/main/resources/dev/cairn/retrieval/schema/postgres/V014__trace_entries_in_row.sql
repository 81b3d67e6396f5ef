-- A trace's candidates move from a row each in retrieval_trace_hits into one value of the trace's
-- row (TraceEntries: deflated JSON; this conversion writes the same JSON undeflated, which SQL
-- cannot deflate and the reader also takes). 100-200 rows with an index entry each cost the
-- writer more CPU and disk than the trace is worth.

ALTER TABLE retrieval_traces ADD COLUMN entries bytea NOT NULL DEFAULT '\x5b5d';

UPDATE retrieval_traces t SET entries = convert_to(h.entries::text, 'UTF8')
FROM (
    SELECT namespace, trace_id, jsonb_agg(jsonb_build_object(
        'position', position,
        'chunkId', chunk_id,
        'documentId', document_id,
        'fused', fused,
        'ranks', ranks,
        'scores', scores,
        'selected', selected,
        'title', title,
        'heading', heading,
        'text', text,
        'authority', authority,
        'filteredOut', filtered_out,
        'explanation', explanation,
        'graphPath', graph_path) ORDER BY position) AS entries
    FROM retrieval_trace_hits
    GROUP BY namespace, trace_id) h
WHERE t.namespace = h.namespace AND t.id = h.trace_id;

DROP TABLE retrieval_trace_hits;
