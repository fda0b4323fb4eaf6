#!/usr/bin/env bash
# Generates a typed client from openapi.yaml (openapi-typescript), type-checks tests/contract/
# client.ts against it with `tsc --strict`, and runs it against API_URL: a user's generated SDK
# works. The generated files go to tests/contract/.build (ignored by git).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$here/.build"
rm -rf "$out"; mkdir -p "$out"
"$here/node_modules/.bin/openapi-typescript" "$root/openapi.yaml" -o "$out/schema.d.ts" --redocly "$root/redocly.yaml" --silent
cp "$here/client.ts" "$out/client.ts"
"$here/node_modules/.bin/tsc" --strict --noEmit false --target es2022 --module nodenext \
  --moduleResolution nodenext --skipLibCheck --types node --typeRoots "$here/node_modules/@types" \
  --outDir "$out" "$out/client.ts"
# Compiled beside node_modules' parent so that `openapi-fetch` resolves.
cp "$out/client.js" "$here/.build-client.mjs"
trap 'rm -f "$here/.build-client.mjs"' EXIT
node "$here/.build-client.mjs"
