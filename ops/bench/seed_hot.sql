-- One busy account for the hot-account benchmark (ops/bench/charge-ratio): acc_bench0, funded
-- through the ledger, a LIVE key, :numbers local numbers (+1613500xxxx, none shared with the
-- other bench accounts) and :recipients consented recipients cached as mobile. A business
-- sending a thousand texts a second spreads them over many numbers, so the one row every send
-- of it must touch is the account's balance (and its hourly counter).
INSERT INTO accounts (id, name, email, password_hash, status, verified_phone, phone_number_limit)
VALUES ('acc_bench0', 'Bench hot', 'bench0@example.ca', 'x', 'ACTIVE', '+14162220000', :numbers);
UPDATE accounts SET balance_cents = 100000000 WHERE id = 'acc_bench0';
INSERT INTO ledger_entries (account_id, amount_cents, balance_after_cents, kind, reference_id,
                            description)
VALUES ('acc_bench0', 100000000, 100000000, 'top_up', 'bench-acc_bench0', 'Benchmark funds');
INSERT INTO api_keys (id, account_id, key_hash, key_prefix, mode, permissions)
VALUES ('key_bench0', 'acc_bench0',
        encode(sha256(convert_to('mk_live_' || lpad('0', 32, '0'), 'UTF8')), 'hex'),
        'mk_live_0000', 'LIVE', :'permissions'::jsonb);
INSERT INTO number_purchases (id, account_id, phone_number, number_type, monthly_cost_cents,
                              activation_fee_cents, status, settled_at)
SELECT 'np_bench0_' || n, 'acc_bench0', '+1613' || (5000000 + n), 'local', 150, 100,
       'COMPLETED', now()
FROM generate_series(1, :numbers) n;
INSERT INTO phone_numbers (id, account_id, purchase_id, phone_number, area_code, region,
                           capabilities, number_type, status, monthly_cost_cents, provisioned_at,
                           next_rent_due_at)
SELECT 'pn_bench0_' || n, 'acc_bench0', 'np_bench0_' || n, '+1613' || (5000000 + n), '613', 'ON',
       '["sms"]', 'local', 'ACTIVE', 150, now(), now() + interval '1 month'
FROM generate_series(1, :numbers) n;
INSERT INTO consents (id, account_id, mode, channel, phone_number, consent_type,
                      source_description)
SELECT 'cns_bench0_' || r, 'acc_bench0', 'LIVE', 'SMS', '+1514' || (2200000 + r), 'EXPRESS',
       'Benchmark'
FROM generate_series(1, :recipients) r;
INSERT INTO number_lookups (phone_number, line_type)
SELECT DISTINCT phone_number, 'mobile' FROM consents WHERE id LIKE 'cns_bench0_%'
ON CONFLICT DO NOTHING;
