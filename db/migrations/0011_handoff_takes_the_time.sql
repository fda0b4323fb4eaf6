-- The sender's claim and its diagnosis take the time from the caller (p_now), like every
-- function should (db/README.md), so a test moves a clock instead of sleeping; the new texts
-- are in db/functions.
DROP FUNCTION claim_handoff(text);
DROP FUNCTION handoff_state(text, int);
