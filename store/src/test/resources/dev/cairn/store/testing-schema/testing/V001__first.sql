-- a comment line
CREATE TABLE first_table (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL
);
INSERT INTO first_table (id, name) VALUES (1, '${greeting}');
