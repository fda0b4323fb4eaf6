-- Operations issue, the stuck-work reconciler (pipeline rule 6; workers/sender/reconciler.h).
-- What it fixed: one row per thing it republished or asked the carrier about. The upsert that
-- writes a row is also the claim: a thing is fixed again only once its row is older than the
-- reconciler's wait, so reconcilers in several processes never fix the same thing at once.
CREATE TABLE reconciler_fixes (
  kind     text NOT NULL CHECK (kind IN ('queued', 'sending', 'inbound', 'event')),
  ref      text NOT NULL,  -- message id, outbox id or event id
  fixed_at timestamptz NOT NULL,
  times    integer NOT NULL DEFAULT 1,
  PRIMARY KEY (kind, ref)
);
CREATE INDEX reconciler_fixes_at ON reconciler_fixes (fixed_at);

-- Messages the carrier accepted and has not yet given its final word on.
CREATE INDEX messages_sending ON messages (sent_at) WHERE status = 'SENDING';
-- Inbound records are few; the reconciler looks for those whose text was never stored.
CREATE INDEX outbox_inbound ON outbox (created_at) WHERE topic = 'sms.inbound';
