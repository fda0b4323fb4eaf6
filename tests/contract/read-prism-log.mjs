// Reads Prism's proxy log: which operations and statuses the traffic reached, and every
// violation Prism found in an answer (request violations are the tests' own doing: they send
// bad requests on purpose). Prints a summary; exits 1 when any answer broke the document.
// Usage: node read-prism-log.mjs prism.log openapi.yaml
import {loadYaml, logLines, operationCount, operationNamer} from './prism-log.mjs';

const [logFile, docFile] = process.argv.slice(2);
const lines = logLines(logFile);
const doc = loadYaml(docFile);
const operationOf = operationNamer(doc);

let current = null;
const seen = new Map();        // "METHOD /path" -> set of statuses
const violations = new Map();  // "METHOD /path STATUS: message" -> count
let remocked = 0;
for (const line of lines) {
  let m = line.match(/\[HTTP SERVER\] (\w+) (\S+) .*Request received/);
  if (m) {
    current = {operation: operationOf(m[1], m[2]), status: '?'};
    continue;
  }
  if (!current) continue;
  m = line.match(/The upstream call to \S+ has returned (\d+)|Upstream call to \S+ has returned (\d+)/);
  if (m) {
    current.status = m[1] || m[2];
    if (!seen.has(current.operation)) seen.set(current.operation, new Set());
    seen.get(current.operation).add(current.status);
    continue;
  }
  if (/Remocking the call/.test(line)) remocked++;
  m = line.match(/Violation: (response\S*) (.*)$/);
  if (m) {
    const key = `${current.operation} ${current.status}: ${m[1]} ${m[2]}`;
    violations.set(key, (violations.get(key) || 0) + 1);
  }
}

const operations = operationCount(doc);
const answers = [...seen.values()].reduce((n, s) => n + s.size, 0);
console.log(`contract: ${seen.size} of ${operations} documented operations reached, ` +
            `${answers} distinct (operation, status) answers; ${remocked} upstream 501s ` +
            `that Prism answered with its mock instead`);
for (const [operation, statuses] of [...seen.entries()].sort()) {
  console.log(`  ${operation}: ${[...statuses].sort().join(' ')}`);
}
if (violations.size === 0) {
  console.log('contract: every answer is one the document describes');
  process.exit(0);
}
console.log(`contract: ${violations.size} kinds of answers the document does not describe:`);
for (const [key, count] of [...violations.entries()].sort()) console.log(`  ${count}x ${key}`);
process.exit(1);
