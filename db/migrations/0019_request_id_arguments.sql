-- Performance issue: the hot path's functions take the request id as an argument
-- (p_request_id) instead of reading the connection's smsgw.request_id, so the sessions that
-- call them need not spend a statement telling it (db/database.h RequestIdUse). The argument
-- defaults to that setting, so every other caller is unchanged. Their new texts are in
-- db/functions; the old signatures go first (a new database has none yet: its functions are
-- created after the migrations).
DROP FUNCTION IF EXISTS raise_event(uuid, text, text, boolean, jsonb, text);
DROP FUNCTION IF EXISTS accept_outbound_message(text, text, text, text, text, text, int, bigint,
                                                int, text, text, boolean, int, text, text, numeric,
                                                numeric, uuid, jsonb, text, text, text,
                                                timestamptz);
DROP FUNCTION IF EXISTS record_carrier_acceptance(text, text, int, bigint, text, text, uuid, jsonb,
                                                  text, timestamptz);
DROP FUNCTION IF EXISTS apply_carrier_receipt(text, text, text, jsonb, uuid, text, jsonb, text,
                                              timestamptz);
