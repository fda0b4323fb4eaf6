-- Issue 50: a LIVE send whose carrier answer was lost after the request was written (a 5xx, a
-- reset connection, no answer in time) may have reached the handset, and Telnyx's send has no
-- idempotency key. It stays QUEUED and charged, its hand-off started, from this time until its
-- receipt settles it or the in-doubt deadline fails it (services/messaging/in_doubt.h).
ALTER TABLE messages ADD COLUMN carrier_outcome_unknown_since timestamptz;
CREATE INDEX messages_in_doubt ON messages (from_number, to_number, body_sha256)
  WHERE carrier_outcome_unknown_since IS NOT NULL AND status = 'QUEUED';
