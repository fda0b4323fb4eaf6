#!/usr/bin/env bash
# Schemathesis (PyPI) against openapi.yaml on the test stack: every operation, with the TEST key
# and with the LIVE key of a topped-up account, bounded in examples per operation and in time.
# Checks: no 5xx (501 aside: tests/contract/schemathesis.toml), answers that match their schema,
# statuses, content types and headers that are documented. Each run's summary is printed.
#
# A key may end its own life (rotate, revoke, or narrow it with PATCH), and Schemathesis reuses
# ids it saw in answers, so it does end the key it runs with: those three operations run last,
# after every other operation has run with both keys.
#
# The seed is fixed so a failure reproduces (SCHEMATHESIS_SEED to explore others);
# SCHEMATHESIS_EXAMPLES sets the examples per operation. Needs API_URL (ops/test).
# Usage: schemathesis.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
st="${SMSGW_TOOLS_DIR:-$HOME/.cache/smsgw}/schemathesis/bin/st"
[ -x "$st" ] || { echo "schemathesis is not installed (ops/test installs it)"; exit 1; }
seed="${SCHEMATHESIS_SEED:-20261127}" examples="${SCHEMATHESIS_EXAMPLES:-5}"
work="$(mktemp -d /tmp/smsgw-schemathesis.XXXXXX)"
trap 'rm -rf "$work"' EXIT
cd "$work"  # Schemathesis keeps a cache in its working folder

# A customer of its own: both keys, and $50 so LIVE operations get past 402.
curl -sf -X POST "$API_URL/v1/accounts" -H 'Content-Type: application/json' \
  -d '{"name":"Schemathesis","email":"schemathesis+'"$(date +%s%N)"'@example.ca","password":"a long passphrase","accept_terms":true}' \
  > "$work/signup.json"
account=$(jq -r .account.id "$work/signup.json")
test_key=$(jq -r '.api_keys[] | select(.mode=="TEST") | .key' "$work/signup.json")
live_key=$(jq -r '.api_keys[] | select(.mode=="LIVE") | .key' "$work/signup.json")
curl -sf -X POST "$API_URL/v1/accounts/$account/top-ups" -H "Authorization: Bearer $live_key" \
  -H 'Content-Type: application/json' -d '{"amount_cents":5000,"payment_token":"tok_sandbox_ok"}' \
  > /dev/null

# What the API saw during a failed run: its slow answers and its errors. A request that timed
# out in CI can then be read after the fact; CI keeps only this test's output.
api_log="${SMSGW_DATA_DIR:-/nonexistent}/logs/api.log"
api_log_size() { if [ -f "$api_log" ]; then stat -c %s "$api_log"; else echo 0; fi; }
api_side_since() {
  [ -f "$api_log" ] || return 0
  echo "== the API's answers slower than 5 s, and its errors, during that run"
  tail -c +"$(( $1 + 1 ))" "$api_log" | python3 -c '
import json, sys
shown = 0
for line in sys.stdin:
    try:
        entry = json.loads(line)
    except ValueError:
        entry = None  # a sanitizer report, or a crash
    slow = entry and entry.get("type") == "access" and entry.get("duration_ms", 0) >= 5000
    error = entry and entry.get("level") in ("error", "critical")
    if (entry is None or slow or error) and shown < 60:
        print(line.rstrip()[:600])
        shown += 1
'
}

ending_the_key=(rotateApiKey revokeApiKey updateApiKey)
failed=0
# run NAME KEY FILTER...: one Schemathesis run; its summary goes to the output.
run() {
  local name="$1" key="$2"; shift 2
  local status=0 log_from
  log_from=$(api_log_size)
  timeout 600 "$st" --config-file "$here/schemathesis.toml" run "$root/openapi.yaml" \
    --url "$API_URL" -H "Authorization: Bearer $key" -H "X-API-Key: $key" \
    --phases examples,coverage,fuzzing \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance \
    --max-examples "$examples" --seed "$seed" --workers 2 --request-timeout 30 \
    --no-color "$@" > "$work/$name.log" 2>&1 || status=$?
  echo "== schemathesis, $name: exit $status"
  if [ "$status" -ne 0 ]; then
    failed=1
    # Failures and errors (a request that timed out, a connection refused) have sections of
    # their own; anything else wrong (a crash of Schemathesis itself) shows in the log's tail.
    if grep -Eq '^=+ (FAILURES|ERRORS) =+$' "$work/$name.log"; then
      sed -En '/^=+ (FAILURES|ERRORS) =+$/,$p' "$work/$name.log"
    else
      tail -n 80 "$work/$name.log"
    fi
    api_side_since "$log_from"
  else
    sed -n '/^=* SUMMARY =*$/,$p' "$work/$name.log"
  fi
}
excluded=() included=()
for op in "${ending_the_key[@]}"; do
  excluded+=(--exclude-operation-id "$op"); included+=(--include-operation-id "$op")
done
run "TEST key, every operation but the key's end" "$test_key" "${excluded[@]}"
run "LIVE key, every operation but the key's end" "$live_key" "${excluded[@]}"
run "TEST key, the key's end" "$test_key" "${included[@]}"
run "LIVE key, the key's end" "$live_key" "${included[@]}"
exit "$failed"
