-- Every function takes the time from its caller (p_now) rather than calling now() (db/README.md),
-- and post_ledger_entry says what came of a posting (POSTED, ALREADY_POSTED or
-- INSUFFICIENT_BALANCE) so no caller re-derives it. Their new texts are in db/functions; the old
-- signatures go first.
DROP FUNCTION accept_outbound_message(text, text, text, text, text, text, int, bigint, int, text,
                                      text, boolean, int, text, text, numeric, numeric, uuid,
                                      jsonb, text, text, text);
DROP FUNCTION api_account_document(accounts);
DROP FUNCTION api_key_caller(text);
DROP FUNCTION apply_carrier_receipt(text, text, text, jsonb, uuid, text, jsonb, text);
DROP FUNCTION known_destination(text, int, int, int);
DROP FUNCTION is_undeliverable(text, int, int);
DROP FUNCTION live_sender_standing(text, text);
DROP FUNCTION record_carrier_acceptance(text, text, int, bigint, text, text, uuid, jsonb, text);
DROP FUNCTION reserve_send_slot(text, text, int, numeric, numeric);
DROP FUNCTION send_counts(text, text, text, text);
DROP FUNCTION post_ledger_entry(text, bigint, text, text, text);
