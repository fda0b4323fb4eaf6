// Telnyx's own Node SDK (npm `telnyx`, unmodified) judges our carrier simulator
// (ops/carrier_sim): the SDK's client, pointed at a private simulator, makes every call the
// gateway makes and must parse every answer; the SDK's webhook verification must accept every
// webhook the simulator signs, and refuse one altered by a byte or checked with another key.
// Usage: node sdk-check.mjs <smsgw-carrier-sim binary>
// Traffic stays on 127.0.0.1: the simulator on SIM_PORT + 7 (18097 by default), the webhook
// receiver on a port the system picks.
import http from 'node:http';
import { spawn } from 'node:child_process';
import assert from 'node:assert/strict';
import Telnyx from 'telnyx';

// The simulator's published webhook key (adapters/http_carrier_client.h).
const SIMULATOR_PUBLIC_KEY = '6CIaODI8VKej2Koxy5F0ReZSA8axRLF8gtXGUxLjZbw=';
const OTHER_PUBLIC_KEY = '11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='; // RFC 8032 test 1
const API_KEY = 'sdk-check-key';
const simPort = Number(process.env.SIM_PORT || 18090) + 7;
const log = (...parts) => console.log(...parts);

const webhooks = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    webhooks.push({ headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const webhookUrl = `http://127.0.0.1:${receiver.address().port}/telnyx-webhooks`;

const sim = spawn(process.argv[2], ['--host', '127.0.0.1', '--port', String(simPort),
  '--api-key', API_KEY, '--webhook-url', webhookUrl, '--receipt-delay-ms', '100'],
  { stdio: ['ignore', 'inherit', 'inherit'] });
const stop = () => { sim.kill('SIGTERM'); receiver.close(); };
const deadline = (ms) => Date.now() + ms;

async function waitFor(what, test, ms = 15000) {
  for (const end = deadline(ms); Date.now() < end;) {
    try { if (await test()) return; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

try {
  await waitFor('the simulator', async () =>
    (await fetch(`http://127.0.0.1:${simPort}/health`)).ok);
  const client = new Telnyx({ apiKey: API_KEY, baseURL: `http://127.0.0.1:${simPort}/v2`,
    publicKey: SIMULATOR_PUBLIC_KEY, maxRetries: 0 });

  log('1. the SDK client calls what the gateway calls, and the answers parse');
  const from = '+16135550100', to = '+16135550199';
  const sent = await client.messages.send({ from, to, text: 'Hello from the SDK check' });
  assert.match(sent.data.id, /^[0-9a-f-]{36}$/);
  assert.equal(sent.data.to[0].status, 'queued');
  log(`  messages.send -> ${sent.data.id} (${sent.data.to[0].status})`);
  const read = await client.messages.retrieve(sent.data.id);
  assert.equal(read.data.id, sent.data.id);
  log(`  messages.retrieve -> to[0].status ${read.data.to[0].status}`);

  const available = await client.availablePhoneNumbers.list({
    filter: { national_destination_code: '613', features: ['sms'], limit: 2 } });
  assert.ok(available.data.length >= 1, 'numbers offered');
  const number = available.data[0].phone_number;
  assert.match(number, /^\+1613\d{7}$/);
  log(`  availablePhoneNumbers.list -> ${available.data.map((n) => n.phone_number).join(', ')}`);

  // Telnyx's order request makes the messaging profile optional (issue 50).
  assert.equal(available.data.length, 2);
  const bare = await client.numberOrders.create({
    phone_numbers: [{ phone_number: available.data[1].phone_number }] });
  assert.equal(bare.data.messaging_profile_id, undefined);
  log(`  numberOrders.create without a messaging profile -> order ${bare.data.id} (${bare.data.status})`);
  const order = await client.numberOrders.create({ phone_numbers: [{ phone_number: number }],
    messaging_profile_id: 'sim-messaging-profile', customer_reference: 'pur_sdk_check' });
  assert.equal(order.data.phone_numbers[0].phone_number, number);
  log(`  numberOrders.create -> order ${order.data.id} (${order.data.status})`);
  const again = await client.numberOrders.retrieve(order.data.id);
  assert.equal(again.data.status, 'success');
  const byReference = await client.numberOrders.list({
    filter: { customer_reference: 'pur_sdk_check' } });
  assert.equal(byReference.data[0].id, order.data.id);
  log('  numberOrders.retrieve and .list(filter[customer_reference]) -> the same order');

  // Telnyx's document: filter[phone_number] "Requires at least three digits. Non-numerical
  // characters will result in no values being returned." Its ids are numeric (IntId).
  const digits = number.slice(1);
  const byPlus = await client.phoneNumbers.list({ filter: { phone_number: number } });
  assert.equal(byPlus.data.length, 0, 'a + is a non-numerical character: no values');
  const listed = await client.phoneNumbers.list({ filter: { phone_number: digits } });
  assert.equal(listed.data.length, 1);
  const id = listed.data[0].id;
  assert.match(id, /^\d{15,}$/, 'Telnyx names a number by its own numeric id');
  assert.equal(listed.data[0].status, 'active');
  const held = await client.phoneNumbers.retrieve(id);
  assert.equal(held.data.phone_number, number);
  log(`  phoneNumbers.list(filter[phone_number]) -> id ${id}; retrieve -> ${held.data.status}`);
  await client.phoneNumbers.delete(id);
  await assert.rejects(client.phoneNumbers.retrieve(id), Telnyx.NotFoundError);
  const gone = await client.phoneNumbers.list({ filter: { phone_number: digits } });
  assert.deepEqual(gone.data.map((n) => n.status), ['deleted']);
  log('  phoneNumbers.delete(id) -> then retrieve is NotFoundError, and the record is deleted');

  const base = await client.numberLookup.retrieve(to);
  assert.equal(base.data.carrier, undefined, 'the base lookup has no carrier');
  const lookup = await client.numberLookup.retrieve(to, { type: 'carrier' });
  assert.equal(typeof lookup.data.carrier.type, 'string');
  log(`  numberLookup.retrieve(type=carrier) -> carrier.type ${lookup.data.carrier.type}`);

  const stranger = new Telnyx({ apiKey: 'wrong', baseURL: `http://127.0.0.1:${simPort}/v2`,
    maxRetries: 0 });
  const refused = await stranger.messages.retrieve(sent.data.id).catch((e) => e);
  assert.ok(refused instanceof Telnyx.AuthenticationError, String(refused));
  assert.equal(typeof refused.error.errors[0].code, 'string');
  log(`  a wrong key -> AuthenticationError, errors[0].code ${refused.error.errors[0].code}`);

  const fault = await fetch(`http://127.0.0.1:${simPort}/sim/faults`, { method: 'POST',
    headers: { 'content-type': 'application/json' },
    // Scoped to this check's number: the tests beside it share the simulator.
    body: JSON.stringify({ kind: 'send', mode: 'throttle', reset: 30, from, window: 'scoped' }) });
  assert.equal(fault.status, 201);
  const throttled = await client.messages.send({ from, to, text: 'Too fast' }).catch((e) => e);
  assert.ok(throttled instanceof Telnyx.RateLimitError, String(throttled));
  assert.equal(throttled.error.errors[0].code, '10011');
  assert.equal(throttled.headers.get('x-ratelimit-reset'), '30');
  await fetch(`http://127.0.0.1:${simPort}/sim/faults`, { method: 'DELETE' });
  log(`  a send over the rate -> RateLimitError, errors[0].code 10011, x-ratelimit-reset ${
    throttled.headers.get('x-ratelimit-reset')}`);

  log('2. the SDK verifies every webhook the simulator signs');
  const inbound = await fetch(`http://127.0.0.1:${simPort}/sim/inbound`, { method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from: to, to: from, text: 'STOP' }) });
  assert.equal(inbound.status, 202);
  const types = () => webhooks.map((w) => JSON.parse(w.body).data.event_type);
  await waitFor('message.sent, message.finalized and message.received', () =>
    ['message.sent', 'message.finalized', 'message.received'].every((t) => types().includes(t)));
  for (const { headers, body } of webhooks) {
    const event = await client.webhooks.unwrap(body, { headers });
    log(`  ${event.data.event_type}: verified (to[0].status ${event.data.payload.to[0].status})`);
  }
  const finalized = webhooks.find((w) => JSON.parse(w.body).data.event_type === 'message.finalized');
  assert.equal(JSON.parse(finalized.body).data.payload.id, sent.data.id);
  await assert.rejects(client.webhooks.unwrap(finalized.body.replace('}', ' }'),
    { headers: finalized.headers }));
  await assert.rejects(client.webhooks.unwrap(finalized.body,
    { headers: finalized.headers, key: OTHER_PUBLIC_KEY }));
  log('  an altered body, and another key: refused');
  log(`ok: ${webhooks.length} webhooks verified by the SDK`);
} catch (error) {
  console.error('FAILED:', error);
  process.exitCode = 1;
} finally {
  stop();
}
