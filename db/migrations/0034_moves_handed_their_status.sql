-- The functions that make a message or move it are handed the status it takes and the event it
-- raises: services/messaging/lifecycle.h's table is the one place those live. Their new texts
-- are in db/functions; the old signatures go first (a new database has none yet: its functions
-- are created after the migrations).
DROP FUNCTION IF EXISTS accept_outbound_message(text, text, text, text, text, text, int, bigint,
                                                int, text, text, boolean, int, text, text, numeric,
                                                numeric, uuid, jsonb, text, text, text,
                                                timestamptz, text);
DROP FUNCTION IF EXISTS insert_outbound_message(text, text, text, text, text, int, text, bigint,
                                                int, timestamptz, text, text);
DROP FUNCTION IF EXISTS record_carrier_acceptance(text, text, int, bigint, text, text, uuid, jsonb,
                                                  text, timestamptz, text);
DROP FUNCTION IF EXISTS accept_broadcast_batch(text, text, text, text, text, int, int, text,
                                               numeric, numeric, text, text, jsonb, timestamptz,
                                               text);
