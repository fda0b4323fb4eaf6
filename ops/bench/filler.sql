-- Grows the messages table by :rows delivered messages of an idle account, as months of
-- traffic would, and the ledger and the events beside them by as many rows (one charge and one
-- event a message), so the benchmark measures sends against large tables and indexes. Vacuumed at once: months
-- of traffic leave a table autovacuum has kept up with, while a million rows inserted in one go
-- leave autovacuum a pass over all of them, which would run beside the measured rounds (the
-- sixth run's 1M and 5M rounds were slower for both the API and pgbench, and varied by half).
INSERT INTO accounts (id, name, email, password_hash, status)
VALUES ('acc_filler', 'Filler', 'filler@example.ca', 'x', 'ACTIVE') ON CONFLICT DO NOTHING;
INSERT INTO messages (id, account_id, direction, from_number, to_number, body, status,
                      segment_count, mode, cost_cents, part_price_cents, body_sha256, created_at,
                      sent_at, delivered_at, send_at, carrier_message_id)
SELECT 'msg_fill' || g || '_' || :'batch', 'acc_filler', 'OUTBOUND', '+16134000001',
       '+1514' || (6000000 + g % 100000), 'Filler message ' || g, 'DELIVERED', 1, 'LIVE', 2, 2,
       md5(g::text), now() - (g % 86400) * interval '1 minute', now(), now(), now(),
       'car_fill' || g || '_' || :'batch'
FROM generate_series(1, :rows) g;
INSERT INTO ledger_entries (account_id, amount_cents, balance_after_cents, kind, reference_id,
                            description, created_at)
SELECT 'acc_filler', -2, 0, 'sms_outbound', 'fill' || g || '_' || :'batch', 'SMS (1 parts)',
       now() - (g % 86400) * interval '1 minute'
FROM generate_series(1, :rows) g;
INSERT INTO events (id, account_id, type, livemode, data, created_at)
SELECT gen_random_uuid(), 'acc_filler', 'message.delivered', true,
       jsonb_build_object('message_id', 'msg_fill' || g || '_' || :'batch', 'status', 'DELIVERED'),
       now() - (g % 86400) * interval '1 minute'
FROM generate_series(1, :rows) g;
VACUUM (ANALYZE) messages, ledger_entries, events;
