-- Webhooks issue: durable retries shared by every dispatcher, dead letters with replay, the
-- owner's one-hour streak notice, and the lists the management routes read.

-- An event owed to an endpoint after a failed attempt (spec "Delivery rules" 2 and 3). The
-- dispatcher that claims a row pushes next_attempt_at ahead by a lease, so a dispatcher killed
-- mid-attempt leaves it to be taken again once the lease runs out (pipeline rule 5).
CREATE TABLE webhook_retries (
  webhook_id      text NOT NULL REFERENCES webhooks (id),
  event_id        uuid NOT NULL REFERENCES events (id),
  account_id      text NOT NULL REFERENCES accounts (id),
  -- Attempts made so far; 0 for a first attempt a dispatcher parked when it shut down.
  attempts        integer NOT NULL CHECK (attempts >= 0),
  next_step       integer NOT NULL,  -- the retry schedule's step of the next attempt (-1: none)
  last_reason     text,
  next_attempt_at timestamptz NOT NULL,
  created_at      timestamptz NOT NULL,
  PRIMARY KEY (webhook_id, event_id)
);
CREATE INDEX webhook_retries_due ON webhook_retries (next_attempt_at);

CREATE TABLE webhook_dead_letters (
  id                text PRIMARY KEY,
  webhook_id        text NOT NULL REFERENCES webhooks (id),
  account_id        text NOT NULL REFERENCES accounts (id),
  event_id          uuid NOT NULL REFERENCES events (id),
  event_type        text NOT NULL,
  failed_reason     text NOT NULL,
  payload           jsonb NOT NULL,  -- the envelope as delivered
  created_at        timestamptz NOT NULL,
  replay_started_at timestamptz,     -- a replay holds it for a short while (409 meanwhile)
  replayed_at       timestamptz,
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_dead_letters_unreplayed ON webhook_dead_letters (webhook_id, created_at DESC)
  WHERE replayed_at IS NULL;

CREATE INDEX webhook_deliveries_newest ON webhook_deliveries (webhook_id, occurred_at DESC);

-- When the owner was told about the current failure streak (spec rule 6: one hour into it).
ALTER TABLE webhooks ADD COLUMN streak_notified_at timestamptz;

CREATE FUNCTION api_webhook_delivery(d webhook_deliveries) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', d.id, 'event_id', d.event_id, 'event_type', d.event_type, 'attempt', d.attempt,
    'success', d.success, 'http_status', d.http_status, 'error_reason', d.error_reason,
    'duration_ms', d.duration_ms, 'occurred_at', iso_ts(d.occurred_at))
$$;

CREATE FUNCTION api_webhook_dead_letter(l webhook_dead_letters) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', l.id, 'event_id', l.event_id, 'event_type', l.event_type,
    'failed_reason', l.failed_reason, 'created_at', iso_ts(l.created_at),
    'replayed_at', iso_ts(l.replayed_at), 'payload', l.payload)
$$;
