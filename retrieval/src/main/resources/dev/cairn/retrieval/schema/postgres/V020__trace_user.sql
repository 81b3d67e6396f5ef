-- The user a retrieve query was asked for (the request's optional userId; '' for none), so
-- forgetting a user (issue 44) finds the stored traces of their queries.

ALTER TABLE retrieval_traces ADD COLUMN user_id text NOT NULL DEFAULT '';

CREATE INDEX retrieval_traces_user ON retrieval_traces (namespace, user_id);
