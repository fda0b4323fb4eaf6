-- The rules a send and a broadcast batch share live once, in batched functions a single send
-- calls with one row (post_ledger_entries, reserve_send_slots, insert_outbound_messages;
-- db/functions). Their one-row forms go.
DROP FUNCTION IF EXISTS post_ledger_entry(text, bigint, text, text, text);
DROP FUNCTION IF EXISTS reserve_send_slot(text, text, int, numeric, numeric, timestamptz);
DROP FUNCTION IF EXISTS insert_outbound_message(text, text, text, text, text, int, text, bigint,
                                                int, timestamptz, text, text, text);
