// Writes the copy of Telnyx's document the contract run judges by (run-telnyx-contract.sh),
// from its strict copy (../strict-openapi.mjs):
// - paths under /v2, where our adapter (and Telnyx's servers entry, https://api.telnyx.com/v2)
//   puts them, so that the proxy matches each request to its operation;
// - Telnyx's `format: url` read as `uri`: the validators' `url` is a public web address and
//   refuses 127.0.0.1, where every test's webhook receiver listens; `uri` still checks shape.
// Usage: node prepare-doc.mjs telnyx-strict.yml telnyx-judge.yml
import fs from 'node:fs';
import yaml from 'js-yaml';

const [source, target] = process.argv.slice(2);
const doc = yaml.load(fs.readFileSync(source, 'utf8'));
doc.paths = Object.fromEntries(Object.entries(doc.paths).map(([path, item]) => ['/v2' + path, item]));
delete doc.servers;
const uris = (node) => {
  if (Array.isArray(node)) return node.map(uris);
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'format' && value === 'url' ? 'uri' : uris(value);
  return out;
};
fs.writeFileSync(target, yaml.dump(uris(doc), {lineWidth: -1, noRefs: true}));
