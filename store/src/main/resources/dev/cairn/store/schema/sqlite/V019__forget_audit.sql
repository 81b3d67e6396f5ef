-- One row per user forgotten (DELETE /v1/namespaces/{ns}/users/{userId}, issue 44): who asked,
-- when, in which namespace, for which user, and how many rows of each kind went (a JSON object of
-- counts). No content is kept. The user id is kept so the record proves that the request named in
-- it was honoured. The namespace column is called namespace_name on purpose: a namespace delete
-- removes every table's rows by their `namespace` column, and the record of a forget must outlive
-- the namespace it was made in.

CREATE TABLE forget_audit (
    id             TEXT PRIMARY KEY,
    namespace_name TEXT NOT NULL,
    user_id        TEXT NOT NULL,
    requested_by   TEXT NOT NULL,
    requested_at   INTEGER NOT NULL,
    counts         TEXT NOT NULL
);

CREATE INDEX forget_audit_namespace ON forget_audit (namespace_name, requested_at);
