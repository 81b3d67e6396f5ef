-- Forgetting a user deletes the judgments of the user's memories by target id (FeedbackErasure);
-- without an index each batch of 500 ids read every judgment of the namespace (about 10 ms a
-- batch at 50,000 judgments on a 2-core machine, and the whole namespace again for each batch).

CREATE INDEX retrieval_feedback_target ON retrieval_feedback (namespace, target_kind, target_id);
