-- The judged-relevant prior that goes with an adaptation (issue 42): its weight in fusion and, per
-- document, how many training queries judged it relevant (a JSON object). Versions trained before
-- it have none (weight 0, empty object).

ALTER TABLE retrieval_adaptations ADD COLUMN prior_weight double precision NOT NULL DEFAULT 0;
ALTER TABLE retrieval_adaptations ADD COLUMN prior jsonb NOT NULL DEFAULT '{}';
