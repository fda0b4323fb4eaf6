-- What each process kind may do to the schema's tables (docs/decisions.md, "Who may change the
-- database"). Every kind signs in as its own role (smsgw_api, smsgw_sender, ...); the one who
-- made the cluster made them (deploy/postgres/entrypoint.sh, ops/lib/stack.sh). smsgw-migrate
-- applies this file after the migrations and functions, as the schema's owner, in one
-- transaction: each role loses every right it had on the schema's tables and sequences and gets
-- back exactly the ones below, so a new table is no one's until a line here names it. A role
-- that does not exist is passed over (a cluster made without them; the tests' scratch databases).
--
-- The lists are what the kind's code runs, traced from the statements each role ran through the
-- whole test suite (pg_stat_statements, nested statements included) and read against the code.
-- Functions run with the caller's rights: a kind that calls accept_outbound_message needs the
-- tables it writes. A row lock (FOR UPDATE) needs UPDATE. A sequence behind a column a kind
-- inserts into comes with the INSERT.

CREATE FUNCTION pg_temp.role_of(kind text) RETURNS text LANGUAGE sql AS $$
  SELECT rolname::text FROM pg_roles WHERE rolname = 'smsgw_' || kind
$$;

CREATE FUNCTION pg_temp.kinds() RETURNS SETOF text LANGUAGE sql AS $$
  VALUES ('api'), ('sender'), ('receipt'), ('inbound_keyword'), ('webhook_dispatcher'),
         ('rent_billing')
$$;

CREATE FUNCTION pg_temp.revoke_everything(kind text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  role text := pg_temp.role_of(kind);
  relation text;
BEGIN
  IF role IS NULL THEN RETURN; END IF;
  FOR relation IN
    SELECT c.oid::regclass::text FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relowner = current_user::regrole
      AND c.relkind IN ('r', 'v', 'S', 'p', 'm')
  LOOP
    EXECUTE format('REVOKE ALL ON %s FROM %I', relation, role);
  END LOOP;
END $$;

-- GRANT `privileges` on each of `relations` (tables, views or sequences) to the kind's role.
CREATE FUNCTION pg_temp.allow(kind text, privileges text, relations text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  role text := pg_temp.role_of(kind);
  relation text;
  owned text;
BEGIN
  IF role IS NULL THEN RETURN; END IF;
  FOREACH relation IN ARRAY relations LOOP
    IF (SELECT relkind FROM pg_class WHERE oid = relation::regclass) = 'S' THEN
      EXECUTE format('GRANT %s ON SEQUENCE %I TO %I', privileges, relation, role);
      CONTINUE;
    END IF;
    EXECUTE format('GRANT %s ON TABLE %I TO %I', privileges, relation, role);
    IF privileges ~* 'INSERT' THEN
      FOR owned IN
        SELECT s.relname FROM pg_depend d JOIN pg_class s ON s.oid = d.objid
        WHERE d.refobjid = relation::regclass AND s.relkind = 'S' AND d.deptype IN ('a', 'i')
      LOOP
        EXECUTE format('GRANT USAGE ON SEQUENCE %I TO %I', owned, role);
      END LOOP;
    END IF;
  END LOOP;
END $$;

SELECT pg_temp.revoke_everything(kind)
FROM pg_temp.kinds() kind;

-- Every kind publishes through the outbox and may lead its relay (topics/outbox_relay.h): it
-- writes outbox rows (their commit stamp comes with them, db/functions/stamp_outbox_commit.sql),
-- moves the relay's position, and re-keys the outbox when it finds itself on another cluster
-- after a restore (db/outbox.h, bindOutboxToCluster: it locks, updates and rewrites both tables).
SELECT pg_temp.allow(kind, 'USAGE, SELECT', ARRAY['outbox_commit_stamp']),
       pg_temp.allow(kind, 'SELECT, INSERT, UPDATE', ARRAY['outbox']),
       pg_temp.allow(kind, 'SELECT, INSERT, UPDATE, DELETE', ARRAY['outbox_commits']),
       pg_temp.allow(kind, 'SELECT, UPDATE', ARRAY['outbox_relay_position']),
       pg_temp.allow(kind, 'SELECT', ARRAY['outbox_pending', 'outbox_published'])
FROM pg_temp.kinds() kind;

-- The API: accounts, keys, sign-in, OAuth, contacts, compliance records, numbers, sends and
-- their charges, webhooks' settings, erasures (which delete published outbox rows too).
SELECT pg_temp.allow('api', 'SELECT', ARRAY['prices', 'toll_free_verifications']);
SELECT pg_temp.allow('api', 'SELECT, INSERT', ARRAY[
  'erasures', 'ledger_entries', 'oauth_spent_refresh_tokens']);
SELECT pg_temp.allow('api', 'SELECT, INSERT, DELETE', ARRAY[
  'contact_group_members', 'contact_list_entries', 'early_receipts']);
SELECT pg_temp.allow('api', 'SELECT, INSERT, UPDATE', ARRAY[
  'account_send_hours', 'accounts', 'allowance_requests', 'api_keys', 'broadcast_recipients',
  'broadcasts', 'consent_batches', 'dashboard_sessions', 'events', 'messages', 'number_lookups',
  'number_purchases', 'oauth_clients', 'oauth_codes', 'oauth_grants', 'opt_in_confirmations',
  'opt_outs', 'owner_emails', 'owner_links', 'phone_numbers', 'top_ups', 'trusted_browsers',
  'undeliverable_numbers', 'verifications', 'webhook_deliveries', 'webhooks']);
SELECT pg_temp.allow('api', 'SELECT, INSERT, UPDATE, DELETE', ARRAY[
  'consents', 'contact_groups', 'contact_lists', 'contacts', 'message_idempotency_keys', 'outbox',
  'owner_phone_codes_sent', 'owner_phone_verifications', 'password_failures', 'request_rate_cells',
  'webhook_dead_letters', 'webhook_retries']);

-- The sender: hands messages to the carrier, settles what the carrier refused or never
-- answered (the reconciler), expires consents it finds lapsed, sends verification codes.
SELECT pg_temp.allow('sender', 'SELECT', ARRAY[
  'account_send_hours', 'contact_group_members', 'contact_list_entries', 'contacts',
  'opt_in_confirmations', 'opt_outs', 'prices', 'toll_free_verifications', 'webhook_dead_letters',
  'webhook_deliveries', 'webhook_retries', 'webhooks']);
SELECT pg_temp.allow('sender', 'SELECT, INSERT', ARRAY['events', 'ledger_entries']);
SELECT pg_temp.allow('sender', 'SELECT, UPDATE', ARRAY['accounts', 'consents', 'phone_numbers']);
SELECT pg_temp.allow('sender', 'SELECT, INSERT, DELETE', ARRAY['early_receipts']);
SELECT pg_temp.allow('sender', 'SELECT, INSERT, UPDATE', ARRAY[
  'messages', 'number_lookups', 'process_heartbeats', 'reconciler_fixes', 'undeliverable_numbers',
  'verifications']);

-- The receipt worker: applies carrier receipts and refunds failures; its periodic pass warns of
-- spend, ends OAuth grants whose refresh token expired, and deletes what is past retention
-- (message bodies, published outbox rows, spent sign-in links and OAuth codes, old webhook
-- deliveries).
SELECT pg_temp.allow('receipt', 'SELECT', ARRAY['opt_outs']);
SELECT pg_temp.allow('receipt', 'SELECT, DELETE', ARRAY[
  'number_lookups', 'oauth_clients', 'oauth_codes', 'oauth_spent_refresh_tokens', 'owner_emails',
  'owner_links', 'trusted_browsers', 'webhook_dead_letters', 'webhook_deliveries',
  'webhook_retries']);
SELECT pg_temp.allow('receipt', 'SELECT, INSERT', ARRAY['events', 'ledger_entries']);
SELECT pg_temp.allow('receipt', 'SELECT, UPDATE', ARRAY[
  'accounts', 'messages', 'oauth_grants', 'phone_numbers', 'webhooks']);
-- Ending an expired OAuth grant revokes its keys (db/functions/end_oauth_grant.sql); the key's
-- hash stays the API's alone.
SELECT pg_temp.allow('receipt', 'SELECT (id, oauth_grant_id, revoked_at), UPDATE (revoked_at)',
  ARRAY['api_keys']);
SELECT pg_temp.allow('receipt', 'SELECT, INSERT, DELETE', ARRAY['early_receipts']);
SELECT pg_temp.allow('receipt', 'SELECT, INSERT, UPDATE', ARRAY[
  'process_heartbeats', 'undeliverable_numbers']);
SELECT pg_temp.allow('receipt', 'SELECT, INSERT, UPDATE, DELETE', ARRAY['outbox']);

-- The inbound-keyword worker: stores inbound texts, records STOP, START and HELP, charges
-- inbound parts.
SELECT pg_temp.allow('inbound_keyword', 'SELECT', ARRAY['phone_numbers', 'prices', 'webhooks']);
SELECT pg_temp.allow('inbound_keyword', 'SELECT, INSERT', ARRAY['events', 'ledger_entries']);
SELECT pg_temp.allow('inbound_keyword', 'SELECT, UPDATE', ARRAY[
  'accounts', 'opt_in_confirmations']);
SELECT pg_temp.allow('inbound_keyword', 'SELECT, INSERT, UPDATE', ARRAY[
  'consents', 'messages', 'opt_outs', 'process_heartbeats']);

-- The webhook dispatcher: delivers events, keeps retries and dead letters, marks failing
-- endpoints, emails owners the events they asked for.
SELECT pg_temp.allow('webhook_dispatcher', 'SELECT', ARRAY['accounts', 'events']);
SELECT pg_temp.allow('webhook_dispatcher', 'SELECT, INSERT', ARRAY[
  'owner_event_emails', 'webhook_dead_letters']);
SELECT pg_temp.allow('webhook_dispatcher', 'SELECT, UPDATE', ARRAY['webhooks']);
SELECT pg_temp.allow('webhook_dispatcher', 'SELECT, INSERT, UPDATE', ARRAY[
  'owner_emails', 'process_heartbeats', 'webhook_deliveries']);
SELECT pg_temp.allow('webhook_dispatcher', 'SELECT, INSERT, UPDATE, DELETE', ARRAY[
  'webhook_retries']);

-- The rent-billing worker: charges monthly rent, suspends and releases unpaid numbers.
SELECT pg_temp.allow('rent_billing', 'SELECT', ARRAY['prices', 'webhooks']);
SELECT pg_temp.allow('rent_billing', 'SELECT, INSERT', ARRAY['events', 'ledger_entries']);
SELECT pg_temp.allow('rent_billing', 'SELECT, UPDATE', ARRAY['accounts']);
SELECT pg_temp.allow('rent_billing', 'SELECT, INSERT, UPDATE', ARRAY[
  'number_purchases', 'phone_numbers', 'process_heartbeats']);
