#!/usr/bin/env bash
# Fails when docs/configuration.md is not what the processes say of their settings.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$1"
generated="$(mktemp)"
trap 'rm -f "$generated"' EXIT
"$root/ops/lib/configuration-doc" "$build" > "$generated"
if ! diff -u "$root/docs/configuration.md" "$generated"; then
  echo "docs/configuration.md is stale: run ops/lib/configuration-doc $build > docs/configuration.md"
  exit 1
fi
echo "docs/configuration.md matches the processes' settings"
