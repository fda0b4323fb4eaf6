#!/usr/bin/env bash
# Redocly's lint of openapi.yaml with the project's rules (redocly.yaml): no error and no
# warning; the findings ignored on purpose are listed, with why, in redocly.yaml.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
out="$("$here/node_modules/.bin/redocly" lint openapi.yaml --format=stylish 2>&1)" || { echo "$out"; exit 1; }
echo "$out" | grep -v "Deprecation\|Node.js\|nodejs.org\|╔\|╚\|║" || true
if echo "$out" | grep -qE "^\s+[0-9]+:[0-9]+\s+(error|warning)"; then exit 1; fi
