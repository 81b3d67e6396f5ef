-- What the write-path scanner found on a message (rule names, comma-separated; '' for none).
-- Transcripts are a record of what happened, so a flagged message is stored as sent (secrets
-- redacted) and marked here instead of being refused.
ALTER TABLE messages ADD COLUMN flags text NOT NULL DEFAULT '';
