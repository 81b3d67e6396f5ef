CREATE TABLE second_table (id INTEGER PRIMARY KEY);
INSERT INTO second_table (id) SELECT id FROM first_table;
