-- Operations issue, one send followed everywhere (adapters/log.h): the request that caused a
-- row. A database session working for a request sets smsgw.request_id (db/database.h); the
-- outbox stamps it on each record, which carries it to Kafka as the `request-id` header, and
-- every webhook attempt keeps the id of the request its event came from.
ALTER TABLE outbox
  ADD COLUMN request_id text DEFAULT NULLIF(current_setting('smsgw.request_id', true), '');
ALTER TABLE webhook_deliveries
  ADD COLUMN request_id text DEFAULT NULLIF(current_setting('smsgw.request_id', true), '');
