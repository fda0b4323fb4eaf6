-- pgbench: the database work of one accepted LIVE send, bare: the statements POST /v1/messages
-- runs, in its order, with no HTTP, no JSON parsing and no checks in C++. One read of the key's
-- row (the API keeps callers and confirms them in this read), the destination, the sender's
-- standing, the consent, the limits and the price (send_standing); then the writes (charge and
-- ledger row, pacing slot, message, hourly counter, message.queued event, sms.outbound record)
-- in one call. The physical limit of the send transaction on this machine. The messages it
-- queues are real: the relay publishes them and the sender hands them off.
\set i random(1, :accounts)
\set r random(1, :recipients)
\set n random(1, 2)
BEGIN;
SELECT row_to_json(k)::text, s.*
FROM send_standing('acc_bench' || :i, 'LIVE', '+1613' || (4000000 + :i * 10 + :n),
                   '+1514' || (2200000 + :i * 10000 + :r), now(), md5(random()::text), 30, 3, 90, NULL, NULL) s
LEFT JOIN api_key_caller(encode(sha256(convert_to('mk_live_' || lpad(:i::text, 32, '0'), 'UTF8')),
                                'hex'), now()) k ON true;
SELECT a.* FROM (SELECT 'msg_pgb' || md5(random()::text) AS id, gen_random_uuid() AS event_id) x,
  accept_outbound_message(
    x.id, 'acc_bench' || :i, 'LIVE', '+1613' || (4000000 + :i * 10 + :n),
    '+1514' || (2200000 + :i * 10000 + :r), 'Bench: your order is ready', 1, 2, 2,
    md5(random()::text), 'EXPRESS', false, 1, 'QUEUED', 'message.queued', 'pgb_' || x.id,
    'SMS (1 parts)', 180, :pacing,
    x.event_id,
    jsonb_build_object('v', 1, 'id', x.event_id, 'type', 'message.queued', 'created', '',
                       'account_id', 'acc_bench' || :i, 'livemode', true,
                       'data', jsonb_build_object('message_id', x.id, 'status', 'QUEUED')),
    'events', 'sms.outbound',
    jsonb_build_object('v', 1, 'message_id', x.id, 'account_id', 'acc_bench' || :i,
                       'from', '+1613' || (4000000 + :i * 10 + :n), 'mode', 'LIVE')::text,
    now()) a;
COMMIT;
