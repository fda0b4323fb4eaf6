-- charge-ratio --alternate: a committing transaction waits commit_delay µs before flushing the
-- WAL when commit_siblings others are open, so that one flush can carry several commits.
ALTER SYSTEM SET commit_delay = 200;
ALTER SYSTEM SET commit_siblings = 2;
SELECT pg_reload_conf() \gset
