-- What the relay needs to know which stamps no transaction can still commit below
-- (topics/commit_bound.h), read in this order, each statement after the one before:
--   stamp:   the last stamp handed out;
--   running: the newest transaction then running (NULL when none): a transaction that took a
--            stamp up to `stamp` and has not yet committed is one of them, since it had its id
--            before its stamp;
--   oldest:  the oldest transaction running after that.
-- Once `oldest` of this or a later call is past `running`, every stamp up to `stamp` has
-- committed or rolled back. pg_stat_activity lists every backend's transaction id to any role;
-- prepared transactions (two-phase commit) are not listed, and the gateway makes none.
CREATE OR REPLACE FUNCTION outbox_commit_horizon(OUT stamp bigint, OUT running xid8,
                                                 OUT oldest xid8)
LANGUAGE plpgsql AS $$
BEGIN
  stamp := coalesce(pg_sequence_last_value('outbox_commit_stamp'), 0);
  -- backend_xid has 32 bits: widened by its distance to this snapshot's xmax, which is within
  -- 2^31 of every running transaction.
  SELECT (max(x.xmax + ((a.backend_xid::text::bigint - x.xmax % 4294967296 + 6442450944)
                        % 4294967296) - 2147483648))::text::xid8
  INTO running
  FROM pg_stat_activity a,
       (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS xmax) x
  WHERE a.backend_xid IS NOT NULL;
  oldest := pg_snapshot_xmin(pg_current_snapshot());
END $$;
