-- Forgetting a user finds the answers judged against the user's retrieve traces by trace id
-- (JudgementErasure); without an index each batch of 500 ids read every answer of the namespace.

CREATE INDEX answer_traces_trace ON answer_traces (namespace, trace_id);
