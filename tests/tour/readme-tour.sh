#!/usr/bin/env bash
# The README's curl tour, run as written against the test stack: every ```bash block from
# "## First steps with curl" to "## What is here", then every one of docs/tour.md (which goes
# on from it), in order, in one shell that starts empty
# (only PATH, HOME and LANG), so a step works only with what the README itself exports.
# The only changes to the text: the addresses of the stack ops/up starts (the API on 8080, the
# simulator on 8090, PostgreSQL on 15432) become the test stack's, and build/ the build in use.
#
# A step fails the tour when its command fails, when the API answers 5xx (or nothing), or when
# an answer lacks what the README shows: a field its jq filter names comes back null, or a
# filter prints nothing. Usage: tests/tour/readme-tour.sh BUILD_DIR (API_URL, SIM_URL and
# PG_PORT from ops/test's environment; tests/deploy/ runs it through a deployment's balancer).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
build="$(cd "${1:?usage: readme-tour.sh BUILD_DIR}" && pwd)"
: "${API_URL:?}" "${SIM_URL:?}" "${PG_PORT:?}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

awk '/^## First steps with curl/ { on = 1 } /^## What is here/ { on = 0 }
     on && /^```bash$/ { code = 1; next } on && /^```$/ { code = 0; next } code' \
  "$repo/README.md" > "$work/tour.sh"
[ -s "$work/tour.sh" ] || { echo "no tour found in README.md"; exit 1; }
# Then the longer tour, every ```bash block of docs/tour.md, in the same shell.
awk '/^```bash$/ { code = 1; next } /^```$/ { code = 0; next } code' "$repo/docs/tour.md" \
  >> "$work/tour.sh"
steps="$(grep -cE '^# [0-9]+\.' "$work/tour.sh")"

# A deployment in production mode refuses a webhook at the simulator's plain-HTTP, private
# address: the deployment test names its customer endpoint (TOUR_WEBHOOK_URL) instead.
webhook_url="${TOUR_WEBHOOK_URL:-http://127.0.0.1:8090/sim/webhook-inbox}"
sed -e "s#http://127.0.0.1:8090/sim/webhook-inbox#$webhook_url#g" \
    -e "s#http://127.0.0.1:8080#$API_URL#g" -e "s#http://127.0.0.1:8090#$SIM_URL#g" \
    -e "s#port=15432#port=$PG_PORT#g" -e "s#build/ops/#$build/ops/#g" "$work/tour.sh" > "$work/steps.sh"

# The prelude watches every curl and jq the README runs.
cat > "$work/run.sh" <<'PRELUDE'
set -eo pipefail
step="(before step 1)"
fail() { echo "README tour, $step: $*" >&2; exit 1; }
trap 'echo "README tour, $step: \"$BASH_COMMAND\" failed" >&2' ERR
curl() {
  local code
  exec 3>&1
  code="$(command curl --write-out '%{stderr}%{http_code}' "$@" 2>&1 >&3)" || fail "curl $* failed"
  exec 3>&-
  case "${code: -3}" in 000 | 5??) fail "curl $* answered ${code: -3}";; esac
}
jq() {
  local out status=0 filter="" raw=0 exit_status=0 args=("$@") i=0
  while [ "$i" -lt "${#args[@]}" ]; do  # the filter is the first argument that is no option
    case "${args[$i]}" in
      --arg | --argjson | --slurpfile | --rawfile) i=$((i + 2));;
      -r) raw=1;;
      -e) exit_status=1;;
      -*) ;;
      *) [ -z "$filter" ] && filter="${args[$i]}";;
    esac
    i=$((i + 1))
  done
  out="$(command jq "$@")" || status=$?
  printf '%s\n' "$out"
  [ "$exit_status" = 1 ] && return "$status"  # -e: the README tests the answer itself
  [ "$status" = 0 ] || fail "jq $* failed"
  { [ -z "$filter" ] || [ "$filter" = . ]; } && return 0  # the whole answer, as it comes
  [ -n "$out" ] || fail "jq '$filter' printed nothing"
  if [ "$raw" = 1 ]; then
    ! grep -qx null <<<"$out" || fail "jq -r '$filter' printed null"
  elif [[ "$filter" == *"{"* ]]; then
    command jq -se '[.. | select(. == null)] | length == 0' <<<"$out" >/dev/null ||
      fail "jq '$filter': a field the README shows is missing or null"
  fi
  return 0
}
PRELUDE
# Each numbered comment starts a step: the failure message names it.
sed -E 's/^# ([0-9]+)\.(.*)$/step="step \1"; echo "--- step \1"  # \2/' "$work/steps.sh" >> "$work/run.sh"

cd "$work"
# The deployment test's balancer has a certificate from its own authority (CURL_CA_BUNDLE).
env -i PATH="$PATH" HOME="$work" LANG=C.UTF-8 ${CURL_CA_BUNDLE:+CURL_CA_BUNDLE="$CURL_CA_BUNDLE"} \
  bash "$work/run.sh"
echo "README tour: $steps steps passed"
