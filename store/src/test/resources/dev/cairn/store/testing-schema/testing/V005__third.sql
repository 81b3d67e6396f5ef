-- an earlier text of this migration was applied under another checksum
-- previous-checksum: 0000000000000000000000000000000000000000000000000000000000000abc
CREATE TABLE third_table (id INTEGER PRIMARY KEY);
