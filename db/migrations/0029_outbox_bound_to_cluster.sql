-- Reliability issue 51: the relay's position is a transaction id, which means something only in
-- the cluster that issued it. A logical move (pg_dump and pg_restore, a logical replica promoted)
-- brings the rows and the position into a cluster whose transaction ids may be lower: every new
-- row would sort below the position and never be published, and nothing would say so. The
-- position now names its cluster; a relay that finds another one re-bases the outbox before it
-- publishes (db/outbox.h, bindOutboxToCluster). The re-base tells a restored row from one the
-- new cluster wrote by its id: the relay keeps the highest id it published, and every row
-- written after a restore has a higher one (pg_dump carries the sequence).
ALTER TABLE outbox_relay_position ADD COLUMN cluster_id bigint,
  ADD COLUMN highest_published_id bigint NOT NULL DEFAULT 0;
UPDATE outbox_relay_position p SET cluster_id = c.system_identifier,
  highest_published_id = (SELECT coalesce(max(o.id), 0) FROM outbox o
                          WHERE (o.txid, o.id) <= (p.txid, p.id))
FROM pg_control_system() c;
ALTER TABLE outbox_relay_position ALTER COLUMN cluster_id SET NOT NULL;
