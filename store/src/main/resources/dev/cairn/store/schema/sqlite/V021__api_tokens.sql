-- The API tokens made with POST /v1/tokens (issue 43): every server on the database accepts them
-- and refuses them once deleted. Only the SHA-256 hash of a secret is kept, never the secret.
-- Roles (read, write, review, admin) and namespaces (or *) are JSON arrays of text. Token names
-- are unique, which is how two servers creating the same name at once end with one token.
--
-- api_token_revision is the change marker: one row, its revision raised in the transaction of
-- every insert and delete, so a server rereads the tokens only when it has moved.

CREATE TABLE api_tokens (
    name       TEXT PRIMARY KEY,
    sha256     TEXT NOT NULL UNIQUE,
    roles      TEXT NOT NULL,
    namespaces TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE api_token_revision (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    revision INTEGER NOT NULL
);

INSERT INTO api_token_revision (id, revision) VALUES (1, 0);
