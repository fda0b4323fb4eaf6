// Reads the validating proxy's log of the carrier traffic: every request our adapter made and
// every answer the simulator gave, judged by Telnyx's document. Prints what was checked, by
// operation and status, and every violation; exits 1 on any.
// One kind is listed but allowed: a 5xx the simulator gave because a test injected it. Telnyx's
// document lists no 5xx for some operations, yet a proxy or an outage in front of Telnyx
// answers one all the same, and the adapter is tested against it (docs/carrier.md).
// With --canary it judges instead the one request a canary made with a field Telnyx's document
// does not have, and exits 1 unless that request was found in breach: a judge that finds
// nothing wrong with it would pass anything.
// Usage: node read-carrier-log.mjs prism.log telnyx-proxy.yml [--canary]
import {loadYaml, logLines, operationCount, operationNamer} from '../prism-log.mjs';

const [logFile, docFile, mode] = process.argv.slice(2);
const lines = logLines(logFile);
const doc = loadYaml(docFile);
const operationOf = operationNamer(doc);

const exchanges = [];
let current = null;
for (const line of lines) {
  let m = line.match(/\[HTTP SERVER\] (\w+) (\S+) .*Request received/);
  if (m) {
    current = {operation: operationOf(m[1], m[2]), url: m[2], status: '?', violations: []};
    exchanges.push(current);
    continue;
  }
  if (!current) continue;
  m = line.match(/Forwarding "\w+" request to (\S+?)(\.\.\.)?$/);
  if (m) current.forwarded = m[1];  // with its query, which the line above leaves out
  m = line.match(/upstream call to \S+ has returned (\d+)/i);
  if (m) current.status = m[1];
  m = line.match(/Violation: (\S+) (.*)$/);
  if (m) current.violations.push(`${m[1]} ${m[2]}`);
}

const injectedFault = (exchange, violation) =>
  exchange.status.startsWith('5') && violation.startsWith('response Unable to match the returned status');

if (mode === '--canary') {
  const canary = exchanges.filter((e) => (e.forwarded || '').includes('canary=1'));
  const caught = canary.length === 1 && canary[0].violations.some((v) => v.includes('colour'));
  console.log(`telnyx contract canary: a send with the undocumented field "colour" was ` +
              (caught ? `found in breach: ${canary[0].violations.join('; ')}` : 'NOT found in breach'));
  process.exit(caught ? 0 : 1);
}

// The calls adapters/http_carrier_client.cpp makes (docs/carrier.md, "What we call"): each must
// have been judged at least once.
const adapterCalls = ['POST /v2/messages', 'GET /v2/messages/{id}',
  'GET /v2/number_lookup/{phone_number}', 'GET /v2/available_phone_numbers', 'POST /v2/number_orders',
  'GET /v2/number_orders', 'GET /v2/phone_numbers', 'DELETE /v2/phone_numbers/{id}'];
const seen = new Map();
const violations = new Map();
const faults = new Map();
for (const exchange of exchanges) {
  if (!seen.has(exchange.operation)) seen.set(exchange.operation, new Set());
  seen.get(exchange.operation).add(exchange.status === '?' ? 'none (the client gave up)' : exchange.status);
  for (const violation of exchange.violations) {
    const key = `${exchange.operation} ${exchange.status}: ${violation}`;
    const into = injectedFault(exchange, violation) ? faults : violations;
    into.set(key, (into.get(key) || 0) + 1);
  }
}
const operations = operationCount(doc);
const missed = adapterCalls.filter((call) => !seen.has(call));
console.log(`telnyx contract: ${exchanges.length} requests and their answers checked; ` +
            `${seen.size} of the document's ${operations} operations reached, ` +
            `${adapterCalls.length - missed.length} of the adapter's ${adapterCalls.length}`);
for (const call of missed) violations.set(`${call}: the adapter's call was never made`, 1);
for (const [operation, statuses] of [...seen.entries()].sort()) {
  console.log(`  ${operation}: ${[...statuses].sort().join(' ')}`);
}
for (const [key, count] of [...faults.entries()].sort()) {
  console.log(`  allowed, an injected fault: ${count}x ${key}`);
}
if (violations.size === 0 && exchanges.length > 0) {
  console.log('telnyx contract: 0 violations');
  process.exit(0);
}
console.log(`telnyx contract: ${violations.size} kinds of violations:`);
for (const [key, count] of [...violations.entries()].sort()) console.log(`  ${count}x ${key}`);
process.exit(1);
