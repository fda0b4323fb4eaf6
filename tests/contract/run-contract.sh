#!/usr/bin/env bash
# The contract test: the e2e suite's traffic goes through Stoplight Prism's validating proxy,
# checked against a strict copy of openapi.yaml (strict-openapi.mjs: no undocumented fields),
# and the test fails on any answer the document does not describe (status, headers or body).
# The e2e tests' own verdicts are not this test's: the suite runs straight against the API
# elsewhere, and through the proxy some answers differ for the proxy's sake (Prism replaces an
# upstream 501 with a mock of its own). Left out: the hostile-client and HTTP-edge tests, which
# speak raw or broken HTTP that no proxy passes on as it came. Needs API_URL and the e2e suite's
# environment (ops/test). Usage: run-contract.sh BUILD_DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$1"
work="$(mktemp -d /tmp/smsgw-contract.XXXXXX)"
trap 'kill "$prism_pid" 2>/dev/null || true; clear_faults; rm -rf "$work"' EXIT
node "$here/strict-openapi.mjs" "$root/openapi.yaml" "$work/strict.yaml"
# The simulator's faults are shared: none armed before, none left behind.
clear_faults() { curl -s -o /dev/null -X DELETE "$SIM_URL/sim/faults" || true; }
clear_faults
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$here/node_modules/.bin/prism" proxy "$work/strict.yaml" "$API_URL" --host 127.0.0.1 --port "$port" \
  > "$work/prism.log" 2>&1 &
prism_pid=$!
for _ in $(seq 120); do
  grep -q "Prism is listening" "$work/prism.log" && break
  kill -0 "$prism_pid" 2>/dev/null || { cat "$work/prism.log"; exit 1; }
  sleep 0.5
done
API_URL="http://127.0.0.1:$port" "$build/tests/e2e/e2e_tests" --gtest_brief=1 \
  --gtest_filter='-HostileClient.*:HttpEdge.*' > "$work/e2e.log" 2>&1 || true
kill "$prism_pid"; wait "$prism_pid" 2>/dev/null || true
echo "contract: the e2e suite through the proxy: $(grep -E '^\[  PASSED  \]' "$work/e2e.log" || true)"
grep -E '^\[  FAILED  \] [A-Za-z]' "$work/e2e.log" | sed 's/^/  through the proxy only, not a verdict: /' || true
# Each proxied answer, "METHOD /path STATUS", and the violations found in it.
node "$here/read-prism-log.mjs" "$work/prism.log" "$root/openapi.yaml"
