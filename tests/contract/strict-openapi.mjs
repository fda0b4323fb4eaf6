// Writes a strict copy of openapi.yaml for the contract test: every object schema that lists its
// properties allows no others (allOf compositions are merged first, so their parts do not reject
// each other's fields). The published document stays open (clients ignore unknown fields); the
// test's copy makes any field the API answers without documenting it a violation.
// Usage: node strict-openapi.mjs openapi.yaml strict.yaml
import fs from 'node:fs';
import yaml from 'js-yaml';

const [source, target] = process.argv.slice(2);
const doc = yaml.load(fs.readFileSync(source, 'utf8'));

function resolve(schema) {
  if (schema && schema.$ref && schema.$ref.startsWith('#/components/schemas/')) {
    return doc.components.schemas[schema.$ref.split('/').pop()];
  }
  return schema;
}

function merged(schema) {
  const out = {type: 'object', properties: {}, required: []};
  for (const part of schema.allOf.map(resolve)) {
    const flat = part.allOf ? merged(part) : part;
    Object.assign(out.properties, flat.properties || {});
    out.required.push(...(flat.required || []));
  }
  for (const [key, value] of Object.entries(schema)) if (key !== 'allOf') out[key] = value;
  return out;
}

function strict(node) {
  if (Array.isArray(node)) return node.map(strict);
  if (!node || typeof node !== 'object') return node;
  let schema = node;
  if (schema.allOf && schema.allOf.every((part) => {
    const p = resolve(part);
    return p && (p.properties || p.allOf);
  })) {
    schema = merged(schema);
  }
  const out = {};
  for (const [key, value] of Object.entries(schema)) out[key] = strict(value);
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

fs.writeFileSync(target, yaml.dump(strict(doc), {lineWidth: -1, noRefs: true}));
