-- Benchmark customers: :accounts verified, funded accounts, each with a LIVE key, 2 local
-- numbers and :recipients recipients (exchanges 221 to 261, none reserved) with express consent
-- whose line type is cached as mobile.
-- Balances go through the ledger like a top-up, so balance = ledger holds.
INSERT INTO accounts (id, name, email, password_hash, status, verified_phone, phone_number_limit)
SELECT 'acc_bench' || i, 'Bench ' || i, 'bench' || i || '@example.ca', 'x', 'ACTIVE',
       '+14162220000', 10
FROM generate_series(1, :accounts) i;
UPDATE accounts SET balance_cents = 100000000 WHERE id LIKE 'acc_bench%';
INSERT INTO ledger_entries (account_id, amount_cents, balance_after_cents, kind, reference_id,
                            description)
SELECT id, 100000000, 100000000, 'top_up', 'bench-' || id, 'Benchmark funds'
FROM accounts WHERE id LIKE 'acc_bench%';
INSERT INTO api_keys (id, account_id, key_hash, key_prefix, mode, permissions)
SELECT 'key_bench' || i, 'acc_bench' || i,
       encode(sha256(convert_to('mk_live_' || lpad(i::text, 32, '0'), 'UTF8')), 'hex'),
       'mk_live_0000', 'LIVE', :'permissions'::jsonb
FROM generate_series(1, :accounts) i;
INSERT INTO number_purchases (id, account_id, phone_number, number_type, monthly_cost_cents,
                              activation_fee_cents, status, settled_at)
SELECT 'np_bench' || i || '_' || n, 'acc_bench' || i, '+1613' || (4000000 + i * 10 + n),
       'local', 150, 100, 'COMPLETED', now()
FROM generate_series(1, :accounts) i, generate_series(1, 2) n;
INSERT INTO phone_numbers (id, account_id, purchase_id, phone_number, area_code, region,
                           capabilities, number_type, status, monthly_cost_cents, provisioned_at,
                           next_rent_due_at)
SELECT 'pn_bench' || i || '_' || n, 'acc_bench' || i, 'np_bench' || i || '_' || n,
       '+1613' || (4000000 + i * 10 + n), '613', 'ON', '["sms"]', 'local', 'ACTIVE', 150, now(),
       now() + interval '1 month'
FROM generate_series(1, :accounts) i, generate_series(1, 2) n;
INSERT INTO consents (id, account_id, mode, channel, phone_number, consent_type,
                      source_description)
SELECT 'cns_bench' || i || '_' || r, 'acc_bench' || i, 'LIVE', 'SMS',
       '+1514' || (2200000 + i * 10000 + r), 'EXPRESS', 'Benchmark'
FROM generate_series(1, :accounts) i, generate_series(1, :recipients) r;
INSERT INTO number_lookups (phone_number, line_type)
SELECT DISTINCT phone_number, 'mobile' FROM consents WHERE id LIKE 'cns_bench%'
ON CONFLICT DO NOTHING;
