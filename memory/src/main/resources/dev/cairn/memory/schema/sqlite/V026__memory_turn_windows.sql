-- The vectors of a long conversation turn's windows (TurnWindows, issue 39): float32 values,
-- little-endian, one window's dimensions after another. NULL: none (a memory that is no long
-- turn) or not computed yet (memories written before this version; maintenance computes them).
-- Written with the embedding: a new embedding replaces them.

ALTER TABLE memories ADD COLUMN windows BLOB;
