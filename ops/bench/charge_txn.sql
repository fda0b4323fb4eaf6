-- pgbench: the statements of one accepted LIVE send, bare (no HTTP, no JSON, no checks in
-- C++): consent read, recipient and daily counts, charge with its ledger row, pacing slot,
-- message, hourly counter, event and outbox row. The physical limit of the send transaction
-- on this machine.
\set i random(1, :accounts)
\set r random(1, 250)
\set n random(1, 2)
BEGIN;
SELECT count(*) FROM consents WHERE account_id = 'acc_bench' || :i AND mode = 'LIVE'
  AND phone_number = '+1514' || (5000000 + :i * 1000 + :r) AND status = 'ACTIVE';
SELECT count(*) FROM messages WHERE account_id = 'acc_bench' || :i AND mode = 'LIVE'
  AND direction = 'OUTBOUND' AND to_number = '+1514' || (5000000 + :i * 1000 + :r)
  AND created_at > now() - interval '1 day';
SELECT coalesce(sum(sent), 0) FROM account_send_hours WHERE account_id = 'acc_bench' || :i
  AND mode = 'LIVE' AND hour > date_trunc('hour', now()) - interval '24 hours';
WITH moved AS (UPDATE accounts SET balance_cents = balance_cents - 2
               WHERE id = 'acc_bench' || :i AND balance_cents >= 2 RETURNING balance_cents)
INSERT INTO ledger_entries (account_id, amount_cents, balance_after_cents, kind, reference_id,
                            description)
SELECT 'acc_bench' || :i, -2, balance_cents, 'sms_outbound', 'pgb_' || md5(random()::text), 'SMS'
FROM moved;
UPDATE phone_numbers SET next_send_at = greatest(coalesce(next_send_at, now()), now())
  WHERE id = 'pn_bench' || :i || '_' || :n;
INSERT INTO messages (id, account_id, direction, from_number, to_number, body, status,
                      segment_count, mode, cost_cents, part_price_cents, send_at, body_sha256)
VALUES ('pgb_' || md5(random()::text), 'acc_bench' || :i, 'OUTBOUND',
        '+1613' || (4000000 + :i * 10 + :n), '+1514' || (5000000 + :i * 1000 + :r),
        'Bench: your order is ready', 'QUEUED', 1, 'LIVE', 2, 2, now(), md5(random()::text));
INSERT INTO account_send_hours AS h (account_id, mode, hour, sent)
VALUES ('acc_bench' || :i, 'LIVE', date_trunc('hour', now()), 1)
ON CONFLICT (account_id, mode, hour) DO UPDATE SET sent = h.sent + 1;
INSERT INTO events (id, account_id, type, livemode, data)
VALUES (gen_random_uuid(), 'acc_bench' || :i, 'message.queued', true, '{"status":"QUEUED"}');
-- Marked published, so the running relay leaves these rows alone.
INSERT INTO outbox (topic, record_key, payload, published_at)
VALUES ('sms.outbound', '+1613' || (4000000 + :i * 10 + :n), '{"v":1}', now());
COMMIT;
