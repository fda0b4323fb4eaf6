-- Performance issue, the outbox written once (topics/outbox_relay.h). A row was inserted, then
-- updated when published (published_at fed the unpublished index's predicate, so never a HOT
-- update), and the relay's read walked the dead entries that left in that index: 0.4 ms of
-- PostgreSQL per message (ops/bench/RESULTS.md). Now a row is never updated. Each carries the
-- id of the transaction that wrote it (txid); the relay publishes in (txid, id) order the rows
-- of transactions older than every transaction still running, and keeps where it stopped in
-- outbox_relay_position. A row that commits late has a txid at or above that horizon, so the
-- position never passes it.

-- Rows already there: those published sort first (txid 1, at or below the position), those
-- not yet published after it (txid 2). Both are below any real transaction id.
ALTER TABLE outbox ADD COLUMN txid xid8;
UPDATE outbox SET txid = CASE WHEN published_at IS NULL THEN '2'::xid8 ELSE '1'::xid8 END;
ALTER TABLE outbox ALTER COLUMN txid SET NOT NULL;
ALTER TABLE outbox ALTER COLUMN txid SET DEFAULT pg_current_xact_id();

CREATE TABLE outbox_relay_position (
  only_row   boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  txid       xid8 NOT NULL,
  id         bigint NOT NULL,
  moved_at   timestamptz NOT NULL DEFAULT now()
);
INSERT INTO outbox_relay_position (txid, id)
SELECT '1'::xid8, coalesce(max(id), 0) FROM outbox WHERE published_at IS NOT NULL;

-- One index, in the relay's order; the retention purge walks it from the front.
DROP INDEX outbox_unpublished;
ALTER TABLE outbox DROP CONSTRAINT outbox_pkey;
ALTER TABLE outbox ADD PRIMARY KEY (txid, id);
ALTER TABLE outbox DROP COLUMN published_at;

-- The rows committed and not yet published (metrics, tests, an operator's question).
CREATE VIEW outbox_pending AS
SELECT o.* FROM outbox o JOIN outbox_relay_position p ON (o.txid, o.id) > (p.txid, p.id);
