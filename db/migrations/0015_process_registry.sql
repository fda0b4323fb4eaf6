-- Operations issue: every running worker process (and every replay) says it is alive here every
-- few seconds. `smsgw-admin replay` refuses a consumer group that has live members (the mock
-- broker cannot describe groups), and ops/status shows what each instance last reported.
CREATE TABLE process_heartbeats (
  instance_id    text PRIMARY KEY,  -- host/pid/process: unique while the process lives
  process        text NOT NULL,     -- sender, receipt, ..., or replay
  consumer_group text,              -- the Kafka consumer group it belongs to
  host           text NOT NULL,
  pid            integer NOT NULL,
  started_at     timestamptz NOT NULL,
  seen_at        timestamptz NOT NULL,
  stopped_at     timestamptz        -- set on a clean stop; a killed process just stops beating
);
CREATE INDEX process_heartbeats_group ON process_heartbeats (consumer_group, seen_at)
  WHERE stopped_at IS NULL;
