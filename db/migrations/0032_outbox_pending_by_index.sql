-- The view of rows committed and not yet published (migration 0030) joined the stamps to the
-- rows. Every metrics scrape of every process counts it, and the reconciler reads it each pass;
-- on the statistics of an outbox the purge had emptied, PostgreSQL planned that join as a scan
-- of the whole outbox per stamp (ops/bench/RESULTS.md, the relay's read). Now it walks the
-- stamps after the position along their index and takes each transaction's rows by the primary
-- key, in a subquery PostgreSQL may not merge into a join (OFFSET 0), as the relay reads.
-- The published view stays a join: its readers (an erasure, the reconciler's inbound check)
-- read many of a day's rows, for which a join is the right plan.
CREATE OR REPLACE VIEW outbox_pending AS
SELECT o.*, c.stamp
FROM outbox_relay_position p
CROSS JOIN LATERAL (SELECT txid, stamp FROM outbox_commits WHERE stamp >= p.stamp) c
CROSS JOIN LATERAL (SELECT * FROM outbox x WHERE x.txid = c.txid
                    AND (c.stamp > p.stamp OR x.id > p.id) OFFSET 0) o;
