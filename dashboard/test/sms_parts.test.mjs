// The dashboard's count of a text's parts against the table the API's count is held to
// (tests/unit/sms_parts_cases.json; tests/unit/sms_segments_test.cpp checks the API's side).
// sms_parts.ts is transpiled here with the TypeScript the build uses, nothing written to disk.
// Usage: node dashboard/test/sms_parts.test.mjs (after npm ci in dashboard/)
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';
import ts from 'typescript';

const here = (path) => new URL(path, import.meta.url);
const source = readFileSync(here('../src/sms_parts.ts'), 'utf8');
const {outputText} = ts.transpileModule(source, {
  compilerOptions: {module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022},
});
const {countParts} = await import(`data:text/javascript,${encodeURIComponent(outputText)}`);
const table = JSON.parse(readFileSync(here('../../tests/unit/sms_parts_cases.json'), 'utf8'));

test('the table has every case', () => assert.equal(table.cases.length, 21));

for (const entry of table.cases) {
  test(entry.name, () => {
    const text = entry.text.map(([piece, times]) => piece.repeat(times)).join('');
    assert.deepEqual(countParts(text), {encoding: entry.encoding, parts: entry.parts});
  });
}
