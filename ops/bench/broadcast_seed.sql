-- Broadcast benchmark data, on top of seed.sql's customers (recipients of account i are
-- '+1514' || (2200000 + i * 10000 + r), consented, line type cached as mobile):
-- - acc_bench1: a group of 250 of its recipients;
-- - acc_bench2: 10,000 more consented recipients (exchanges 300 and 301 of 438, line type
--   cached as mobile) in one group, and the staff override that lets it broadcast to them;
-- - acc_bench3: an allow list whose one entry is a group holding all its 1,000 recipients, and
--   a LIVE key fenced by it (mk_live_ + '900003' padded), for the fenced-send latency.
INSERT INTO contact_groups (id, account_id, name) VALUES
  ('cg_bench250', 'acc_bench1', 'Bench 250'),
  ('cg_bench10k', 'acc_bench2', 'Bench 10k'),
  ('cg_bench_allow', 'acc_bench3', 'Bench allowed');
INSERT INTO contacts (id, account_id, phone_number)
SELECT 'ct_b1_' || r, 'acc_bench1', '+1514' || (2200000 + 10000 + r) FROM generate_series(1, 250) r;
INSERT INTO contact_group_members (group_id, contact_id, added_at)
SELECT 'cg_bench250', 'ct_b1_' || r, now() + r * interval '1 ms' FROM generate_series(1, 250) r;

INSERT INTO consents (id, account_id, mode, channel, phone_number, consent_type,
                      source_description)
SELECT 'cns_b2_' || r, 'acc_bench2', 'LIVE', 'SMS', '+1438' || (3000000 + r), 'EXPRESS',
       'Benchmark'
FROM generate_series(1, 10000) r;
INSERT INTO number_lookups (phone_number, line_type)
SELECT '+1438' || (3000000 + r), 'mobile' FROM generate_series(1, 10000) r
ON CONFLICT DO NOTHING;
INSERT INTO contacts (id, account_id, phone_number)
SELECT 'ct_b2_' || r, 'acc_bench2', '+1438' || (3000000 + r) FROM generate_series(1, 10000) r;
INSERT INTO contact_group_members (group_id, contact_id, added_at)
SELECT 'cg_bench10k', 'ct_b2_' || r, now() + r * interval '1 ms' FROM generate_series(1, 10000) r;
UPDATE accounts SET broadcast_max_members = 10000, broadcasts_per_day = 100000
WHERE id IN ('acc_bench1', 'acc_bench2');

INSERT INTO contacts (id, account_id, phone_number)
SELECT 'ct_b3_' || r, 'acc_bench3', '+1514' || (2200000 + 30000 + r) FROM generate_series(1, 1000) r;
INSERT INTO contact_group_members (group_id, contact_id, added_at)
SELECT 'cg_bench_allow', 'ct_b3_' || r, now() FROM generate_series(1, 1000) r;
INSERT INTO contact_lists (id, account_id, name) VALUES ('cl_bench_allow', 'acc_bench3', 'Allowed');
INSERT INTO contact_list_entries (id, list_id, contact_group_id)
VALUES ('cle_bench_allow', 'cl_bench_allow', 'cg_bench_allow');
INSERT INTO api_keys (id, account_id, key_hash, key_prefix, mode, permissions, allow_list_id)
SELECT 'key_bench_fenced', 'acc_bench3',
       encode(sha256(convert_to('mk_live_' || lpad('900003', 32, '0'), 'UTF8')), 'hex'),
       'mk_live_0000', 'LIVE', permissions, 'cl_bench_allow'
FROM api_keys WHERE id = 'key_bench3';
