-- Recall's adaptations share the store code of retrieve's (AdaptationStore), so they have the
-- learned-fusion column too (V027); recall trains none, so it stays an empty array.

ALTER TABLE memory_adaptations ADD COLUMN fusion jsonb NOT NULL DEFAULT '[]';
