-- Performance issue: the functions that write outbox rows take the request id as an argument
-- (p_request_id) instead of reading the connection's smsgw.request_id, which cost a statement
-- telling each pooled connection whenever its request changed: 4.3 of 20.3 statements per
-- message (ops/bench/RESULTS.md). No session sets it any more; the argument still defaults to
-- it, for an operator's own session. Their new texts are in
-- db/functions; the old signatures go first (a new database has none yet: its functions are
-- created after the migrations).
DROP FUNCTION IF EXISTS raise_event(uuid, text, text, boolean, jsonb, text);
DROP FUNCTION IF EXISTS accept_outbound_message(text, text, text, text, text, text, int, bigint,
                                                int, text, text, boolean, int, text, text, numeric,
                                                numeric, uuid, jsonb, text, text, text,
                                                timestamptz);
DROP FUNCTION IF EXISTS record_carrier_acceptance(text, text, int, bigint, text, text, uuid, jsonb,
                                                  text, timestamptz);
DROP FUNCTION IF EXISTS accept_broadcast_batch(text, text, text, text, text, int, int, text,
                                               numeric, numeric, text, text, jsonb, timestamptz);
DROP FUNCTION IF EXISTS apply_carrier_receipt(text, text, text, jsonb, uuid, text, jsonb, text,
                                              timestamptz);
