-- This database's identity: a random id drawn once, when the table is created. Files derived
-- from the store and kept beside it (the entity graph's snapshot) record it, so a file made from
-- another database (one recreated or replaced under the same data dir) is recognised and ignored.

CREATE TABLE store_instance (
    id TEXT PRIMARY KEY
);

INSERT INTO store_instance (id) VALUES (lower(hex(randomblob(16))));
