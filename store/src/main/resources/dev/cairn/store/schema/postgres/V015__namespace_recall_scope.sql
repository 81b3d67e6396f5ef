-- What a recall without a userId reads: 'user' (it must name its user, or ask for the whole
-- namespace explicitly) or 'namespace' (every user's memories). Namespaces made before this
-- version keep what they did ('namespace'); new ones are created 'user' by the application.

ALTER TABLE namespaces ADD COLUMN recall_scope text NOT NULL DEFAULT 'namespace';
