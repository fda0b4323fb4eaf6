-- Serializes, until the transaction ends, everything recorded under one carrier message id: the
-- sender recording the carrier's acceptance and the receipt worker applying a receipt. Each
-- takes it before its first statement on the id, so that statement's snapshot holds whatever
-- the other committed (services/messaging/receipts.h says what goes wrong without it). The
-- two-key form keeps these locks apart from one-key advisory locks such as the outbox relay's;
-- 727274003 is an arbitrary constant naming this use.
CREATE OR REPLACE FUNCTION lock_carrier_message(p_carrier_message_id text) RETURNS void
LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(727274003, hashtext(p_carrier_message_id));
$$;
