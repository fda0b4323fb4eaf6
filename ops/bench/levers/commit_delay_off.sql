-- charge-ratio --alternate: PostgreSQL's defaults, every commit flushes the WAL at once.
ALTER SYSTEM RESET commit_delay;
ALTER SYSTEM RESET commit_siblings;
SELECT pg_reload_conf() \gset
