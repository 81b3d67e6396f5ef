-- The learned fusion that goes with an adaptation (issue 42): one weight per feature of
-- LearnedFusion.FEATURES, a JSON array. Versions trained before it have none (an empty array).

ALTER TABLE retrieval_adaptations ADD COLUMN fusion jsonb NOT NULL DEFAULT '[]';
