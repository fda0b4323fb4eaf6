// Receives the simulator's webhooks and judges each body by the schema Telnyx's document gives
// its webhook (deliveryUpdate for message.sent and message.finalized, inboundMessage for
// message.received). On SIGTERM it prints what it judged and exits 1 when any body broke the
// document or none came.
// Usage: node webhook-judge.mjs telnyx-strict.yml PORT
import http from 'node:http';
import fs from 'node:fs';
import yaml from 'js-yaml';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const [docFile, port] = process.argv.slice(2);
const doc = yaml.load(fs.readFileSync(docFile, 'utf8'));
// OpenAPI's own words (example, discriminator, x-...) are not JSON Schema: strict mode off.
const ajv = new Ajv2020({strict: false, allErrors: true});
addFormats(ajv);
ajv.addSchema(doc, 'telnyx');
const schemaOf = (webhook) => {
  const ref = doc.webhooks[webhook].post.requestBody.content['application/json'].schema.$ref;
  return ajv.compile({$ref: 'telnyx' + ref});
};
const judges = {
  'message.sent': schemaOf('deliveryUpdate'),
  'message.finalized': schemaOf('deliveryUpdate'),
  'message.received': schemaOf('inboundMessage'),
};

const judged = new Map();  // event type -> count
const broken = [];
http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    res.writeHead(200, {'content-type': 'application/json'}).end('{}');
    let event;
    try { event = JSON.parse(body); } catch { broken.push(`not JSON: ${body.slice(0, 80)}`); return; }
    const type = event?.data?.event_type;
    const judge = judges[type];
    if (!judge) { broken.push(`an event type the document does not give: ${type}`); return; }
    judged.set(type, (judged.get(type) || 0) + 1);
    if (!judge(event)) {
      for (const error of judge.errors) {
        broken.push(`${type}: ${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
      }
    }
  });
}).listen(Number(port), '127.0.0.1');

process.on('SIGTERM', () => {
  const total = [...judged.values()].reduce((a, b) => a + b, 0);
  console.log(`telnyx contract: ${total} webhooks judged by Telnyx's schemas (` +
              [...judged.entries()].map(([t, n]) => `${t} ${n}`).join(', ') + ')');
  for (const line of [...new Set(broken)]) console.log(`  violation: ${line}`);
  process.exit(broken.length > 0 || total === 0 ? 1 : 0);
});
