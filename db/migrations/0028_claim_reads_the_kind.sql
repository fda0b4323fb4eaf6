-- The sender's claim returns the message's kind (is_verification) instead of letting a NULL body
-- stand for a verification: an erasure purges bodies too (issue 51). CREATE OR REPLACE cannot
-- change what a function returns, so the old one goes (a new database has none yet: its
-- functions are applied after the migrations); db/functions has the new text.
DROP FUNCTION IF EXISTS claim_handoff(text, timestamptz);
