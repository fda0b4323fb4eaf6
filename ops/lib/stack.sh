# Shared by ops/up, ops/down, ops/status and ops/test: install, build, start and stop the
# whole local stack. Every setting comes from the environment with the defaults below.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
: "${SMSGW_DATA_DIR:=$REPO_ROOT/.data/dev}"
: "${SMSGW_BUILD_DIR:=$REPO_ROOT/build}"
: "${SMSGW_BUILD_TYPE:=RelWithDebInfo}"
: "${SMSGW_SANITIZE:=OFF}"
: "${PG_PORT:=15432}"
: "${API_PORT:=8080}"
: "${SIM_PORT:=8090}"
: "${SMSGW_BIND_HOST:=127.0.0.1}"
# The API and each worker instance serve /metrics, /health and /ready on a port of their own,
# counted from here (metrics_port_of).
: "${METRICS_BASE_PORT:=9400}"
: "${PROMETHEUS_PORT:=9090}"  # ops/up --observe

# ccache hits across clones of this repository (CI builds in a fresh clone).
export CCACHE_BASEDIR="$REPO_ROOT" CCACHE_NOHASHDIR=true

RUN_DIR="$SMSGW_DATA_DIR/run"
LOG_DIR="$SMSGW_DATA_DIR/logs"
PG_DIR="$SMSGW_DATA_DIR/pg"
BOOTSTRAP_FILE="$SMSGW_DATA_DIR/kafka.bootstrap"
WORKERS=(sender receipt inbound-keyword webhook-dispatcher rent-billing)
# Instances of each worker (ops/up --workers N): they share their topics' partitions through
# the consumer group and time-based work through FOR UPDATE SKIP LOCKED.
: "${SMSGW_WORKER_INSTANCES:=1}"

# Reads the options ops/up and ops/test share: --workers N.
parse_stack_options() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --workers) SMSGW_WORKER_INSTANCES="$2"; shift 2;;
      --observe) SMSGW_OBSERVE=1; shift;;
      *) die "unknown option $1 (ops/up [--workers N] [--observe])";;
    esac
  done
  [[ "$SMSGW_WORKER_INSTANCES" =~ ^[1-9][0-9]?$ ]] || die "--workers takes 1 to 99"
}

# The instance names of a worker: sender, sender-2, sender-3 ...
worker_instances() {
  local worker="$1" i
  echo "$worker"
  for i in $(seq 2 "$SMSGW_WORKER_INSTANCES"); do echo "$worker-$i"; done
}

# Every worker instance that has a pid file (a stack may have been started with more).
running_worker_instances() {
  local worker="$1" file
  for file in "$RUN_DIR/$worker.pid" "$RUN_DIR/$worker"-[0-9]*.pid; do
    [ -f "$file" ] && basename "$file" .pid
  done
  return 0
}

log() { printf '[ops] %s\n' "$*" >&2; }
die() { printf '[ops] error: %s\n' "$*" >&2; exit 1; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

install_packages() {
  local wanted missing=()
  mapfile -t wanted < <(grep -v '^#' "$REPO_ROOT/ops/lib/packages.txt" | sed '/^$/d')
  for pkg in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ "${#missing[@]}" -eq 0 ]; then return 0; fi
  log "installing: ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Schemathesis (PyPI, tests/contract/schemathesis.sh) in a virtual environment of its own,
# from a pinned requirements file; reinstalled only when that file changes.
install_python_checks() {
  local venv="${SMSGW_TOOLS_DIR:-$HOME/.cache/smsgw}/schemathesis"
  local wanted="$REPO_ROOT/tests/contract/requirements.txt"
  if [ -x "$venv/bin/st" ] && cmp -s "$wanted" "$venv/requirements.txt"; then return 0; fi
  if ! python3 -c 'import ensurepip' 2>/dev/null; then
    log "installing: python3-venv"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
  fi
  log "installing: schemathesis (PyPI) into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$wanted"
  cp "$wanted" "$venv/requirements.txt"
}

# An e2e test verifies our signatures with the Standard Webhooks reference library (npm), and the
# contract tests run npm tools (tests/contract).
install_npm_checks() {
  install_node
  (cd "$REPO_ROOT/tests/e2e/standardwebhooks" && npm ci --no-audit --no-fund --silent)
  # The contract tests: Prism's validating proxy, Redocly's lint, a generated typed client.
  (cd "$REPO_ROOT/tests/contract" && npm ci --no-audit --no-fund --silent)
  # OAuth and MCP with the MCP TypeScript SDK, and the consent page in Debian's chromium (a
  # test-only package: not in packages.txt, which the image's build stage installs too).
  (cd "$REPO_ROOT/tests/e2e/mcp" && npm ci --no-audit --no-fund --silent)
  # Telnyx's official SDK, the judge of the carrier simulator (tests/e2e/telnyx).
  (cd "$REPO_ROOT/tests/e2e/telnyx" && npm ci --no-audit --no-fund --silent)
  # The dashboard's journey in chromium, with axe-core (tests/browser).
  (cd "$REPO_ROOT/tests/browser" && npm ci --no-audit --no-fund --silent)
  # kcat, a Kafka client of its own, reads our topics in a test (tests/e2e/kcat.sh).
  local test_only=()
  command -v chromium >/dev/null || test_only+=(chromium fonts-dejavu-core)
  command -v kcat >/dev/null || test_only+=(kcat)
  if [ "${#test_only[@]}" -gt 0 ]; then
    log "installing: ${test_only[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${test_only[@]}" >/dev/null
  fi
}

install_node() {
  command -v npm >/dev/null && return 0
  log "installing: nodejs npm"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
}

# The customer dashboard (dashboard/README.md): its npm packages from the lockfile, the API's
# types generated from openapi.yaml, then Vite's build into dashboard/dist, which the API serves
# at /dashboard. Nothing is fetched when the page runs. Skipped when dist is newer than every
# source.
build_dashboard() {
  local dir="$REPO_ROOT/dashboard" stamp="$REPO_ROOT/dashboard/dist/index.html"
  if [ -f "$stamp" ] && [ -z "$(find "$dir/src" "$dir/index.html" "$dir/package-lock.json" \
      "$dir/vite.config.ts" "$dir/tsconfig.json" "$REPO_ROOT/openapi.yaml" -newer "$stamp" -print -quit)" ]; then
    return 0
  fi
  install_node
  log "building the dashboard"
  (cd "$dir" && npm ci --no-audit --no-fund --silent && npm run --silent build >/dev/null)
}

# ops/check's tools: Debian's clang-format and clang-tidy (14, the release Debian 12 ships).
install_check_tools() {
  local missing=()
  command -v clang-format-14 >/dev/null || missing+=(clang-format-14)
  command -v clang-tidy >/dev/null || missing+=(clang-tidy)
  if [ "${#missing[@]}" -gt 0 ]; then
    log "installing: ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# What a stack runs (the API, the workers, migrations, the simulator, the mock broker) and the
# staff command line the README's tour uses: all ops/up builds. The test suites are ops/test's.
RUNTIME_TARGETS=(smsgw-api smsgw-migrate smsgw-admin smsgw-carrier-sim smsgw-broker
  smsgw-sender smsgw-receipt smsgw-inbound-keyword smsgw-webhook-dispatcher smsgw-rent-billing)

# The one build: ops/up (the runtime targets only), ops/test and deploy/Dockerfile (through
# ops/build: everything). build [TARGET...]: only those targets and what they need.
build() {
  log "building in $SMSGW_BUILD_DIR ($SMSGW_BUILD_TYPE, sanitizers $SMSGW_SANITIZE)"
  cmake -S "$REPO_ROOT" -B "$SMSGW_BUILD_DIR" -DCMAKE_BUILD_TYPE="$SMSGW_BUILD_TYPE" \
    -DSMSGW_SANITIZE="$SMSGW_SANITIZE" -DSMSGW_WERROR="${SMSGW_WERROR:-OFF}" \
    -DSMSGW_BUILD_TESTS="${SMSGW_BUILD_TESTS:-ON}" >/dev/null
  local targets=()
  [ "$#" -gt 0 ] && targets=(--target "$@")
  cmake --build "$SMSGW_BUILD_DIR" -j"${SMSGW_JOBS:-2}" "${targets[@]}"
}

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

as_pg() {
  # From /: the postgres user may not be allowed into the folder we run from.
  if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

# Where the cluster lives. As root, PostgreSQL runs as the postgres user (initdb refuses root),
# and a checkout under a private folder (root's home is mode 700) is out of that user's reach:
# there the cluster lives under /var/lib/smsgw instead, in a folder named after the data folder,
# so each checkout keeps its own. Read again before each use: the postgres user exists only once
# the packages are installed.
locate_pg_dir() {
  PG_DIR="$SMSGW_DATA_DIR/pg"
  [ "$(id -u)" -eq 0 ] && id postgres >/dev/null 2>&1 || return 0
  [ -f "$PG_DIR/PG_VERSION" ] && return 0
  mkdir -p "$SMSGW_DATA_DIR"
  runuser -u postgres -- test -x "$SMSGW_DATA_DIR" 2>/dev/null && return 0
  PG_DIR="/var/lib/smsgw/$(printf '%s' "$SMSGW_DATA_DIR" | sha1sum | cut -c1-12)/pg"
}

database_url() { echo "host=127.0.0.1 port=$PG_PORT dbname=smsgw user=${1:-smsgw}"; }

# Each process kind signs in as its own role, as in production: the API as smsgw_api, a sender
# instance as smsgw_sender, ... with the grants db/grants.sql gives it (and pg_read_all_stats,
# as deploy/postgres/entrypoint.sh says why). The owner (smsgw) is the migrations', the tests'
# and the staff command line's; the simulator has no database.
process_role() {
  local kind="${1%-[0-9]*}"
  case " api ${WORKERS[*]} " in *" $kind "*) echo "smsgw_${kind//-/_}";; *) echo smsgw;; esac
}

start_postgres() {
  local bin; bin="$(pg_bin)"; [ -n "$bin" ] || die "PostgreSQL server binaries not found"
  mkdir -p "$SMSGW_DATA_DIR"
  locate_pg_dir
  if [ ! -f "$PG_DIR/PG_VERSION" ]; then
    log "creating PostgreSQL cluster in $PG_DIR"
    mkdir -p "$PG_DIR"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$PG_DIR"
    as_pg "$bin/initdb" -D "$PG_DIR" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
  fi
  if as_pg "$bin/pg_ctl" -D "$PG_DIR" status >/dev/null 2>&1; then
    log "PostgreSQL already running on $PG_PORT"
  else
    as_pg "$bin/pg_ctl" -D "$PG_DIR" -l "$PG_DIR/server.log" -w -t 60 start \
      -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $PG_DIR -c max_connections=200 -c fsync=${PG_FSYNC:-on} ${PG_OPTIONS:-}" >/dev/null
  fi
  local psql=("$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -v ON_ERROR_STOP=1 -qtA)
  if [ -z "$("${psql[@]}" -c "SELECT 1 FROM pg_roles WHERE rolname = 'smsgw'")" ]; then
    "${psql[@]}" -c "CREATE ROLE smsgw LOGIN CREATEDB" >/dev/null
  fi
  if [ -z "$("${psql[@]}" -c "SELECT 1 FROM pg_database WHERE datname = 'smsgw'")" ]; then
    "${psql[@]}" -c "CREATE DATABASE smsgw OWNER smsgw" >/dev/null
  fi
  local kind role
  for kind in api "${WORKERS[@]}"; do
    role="$(process_role "$kind")"
    if [ -z "$("${psql[@]}" -c "SELECT 1 FROM pg_roles WHERE rolname = '$role'")" ]; then
      "${psql[@]}" -c "CREATE ROLE $role LOGIN IN ROLE pg_read_all_stats" >/dev/null
    fi
  done
}

stop_postgres() {
  local bin; bin="$(pg_bin)"
  locate_pg_dir
  if [ -f "$PG_DIR/PG_VERSION" ] && as_pg "$bin/pg_ctl" -D "$PG_DIR" status >/dev/null 2>&1; then
    as_pg "$bin/pg_ctl" -D "$PG_DIR" -m fast -w stop >/dev/null && log "PostgreSQL stopped"
  fi
}

# Alive, and not a zombie waiting to be reaped (a process killed a moment ago).
is_running() {
  local pid
  [ -f "$RUN_DIR/$1.pid" ] && pid="$(cat "$RUN_DIR/$1.pid")" && kill -0 "$pid" 2>/dev/null \
    && [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ]
}

# start NAME COMMAND...: runs detached with its log and pid file, unless already running. Its
# PostgreSQL connections carry its name (libpq's PGAPPNAME), so pg_stat_activity tells whose
# each is: for instance which process leads the outbox relay (ops/bench/send-bench asks).
start() {
  local name="$1"; shift
  mkdir -p "$RUN_DIR" "$LOG_DIR"
  if is_running "$name"; then log "$name already running (pid $(cat "$RUN_DIR/$name.pid"))"; return 0; fi
  PGAPPNAME="smsgw-$name" METRICS_PORT="$(metrics_port_of "$name")" \
    DATABASE_URL="$(database_url "$(process_role "$name")")" \
    setsid "$@" >>"$LOG_DIR/$name.log" 2>&1 < /dev/null &
  echo $! > "$RUN_DIR/$name.pid"
}

# The operations port of a process: the API's is the base, then one per worker instance in the
# order sender, receipt, ..., sender-2, receipt-2, ...; 0 (none) for the broker and simulator.
metrics_port_of() {
  local name="$1" worker instance=1 i
  [ "$name" = api ] && { echo "$METRICS_BASE_PORT"; return; }
  worker="${name%-[0-9]*}"
  [ "$worker" != "$name" ] && instance="${name##*-}"
  for i in "${!WORKERS[@]}"; do
    if [ "${WORKERS[$i]}" = "$worker" ]; then
      echo $(( METRICS_BASE_PORT + 1 + (instance - 1) * ${#WORKERS[@]} + i ))
      return
    fi
  done
  echo 0
}

# Whether the process answers /ready, or why not.
readiness_of() {
  local port answer
  port="$(metrics_port_of "$1")"
  [ "$port" = 0 ] && { echo "-"; return; }
  if answer=$(curl -s -m 3 "http://127.0.0.1:$port/ready" 2>/dev/null) && [ -n "$answer" ]; then
    echo "$answer" | jq -r 'if .status == "ready" then "ready" else "not ready: " + .reason end' 2>/dev/null \
      || echo "?"
  else
    echo "no answer"
  fi
}

# The last line of a process's log at level error or critical: time and message.
last_error_of() {
  local file="$LOG_DIR/$1.log"
  [ -f "$file" ] || return 0
  { grep -E '"level":"(error|critical)"' "$file" || true; } | tail -n 1 \
    | { jq -r '"last error " + .time + ": " + .message' 2>/dev/null || true; } | cut -c1-160
}

stop() {
  local name="$1" pid
  [ -f "$RUN_DIR/$name.pid" ] || return 0
  pid="$(cat "$RUN_DIR/$name.pid")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then log "$name did not stop in 10 s; killing"; kill -KILL "$pid" 2>/dev/null || true; fi
    log "$name stopped"
  fi
  rm -f "$RUN_DIR/$name.pid"
}

service_env() {
  # A local stack may use the simulator's published secrets; production processes refuse them.
  export SMSGW_ENVIRONMENT=local
  export DATABASE_URL; DATABASE_URL="$(database_url)"
  export KAFKA_BOOTSTRAP_FILE="$BOOTSTRAP_FILE"
  export API_HOST="$SMSGW_BIND_HOST" API_PORT
  export CARRIER_BASE_URL="http://127.0.0.1:$SIM_PORT"
  export CARRIER_API_KEY="${CARRIER_API_KEY:-sim-key}"
  export SIM_GATEWAY_URL="http://127.0.0.1:$API_PORT"
  # The simulated Telnyx account as the going-live checklist sets the real one up: its own
  # STOP handling off, ours the only one (docs/carrier.md, step 7).
  export SIM_OPT_OUT_HANDLING="${SIM_OPT_OUT_HANDLING:-off}"
  # Every send names its webhook URL, as a production deployment should (docs/carrier.md).
  export CARRIER_WEBHOOK_URL="${CARRIER_WEBHOOK_URL-http://127.0.0.1:$API_PORT/carrier/webhooks}"
  export ALLOW_PRIVATE_WEBHOOK_TARGETS="${ALLOW_PRIVATE_WEBHOOK_TARGETS:-true}"
  export KAFKA_SESSION_TIMEOUT_MS="${KAFKA_SESSION_TIMEOUT_MS:-6000}"
  export DASHBOARD_DIR="${DASHBOARD_DIR-$REPO_ROOT/dashboard/dist}"
  # The local stack's inbox: every email to an owner, one file each (adapters/mailer.h).
  export MAIL_DROP_DIR="${MAIL_DROP_DIR-$SMSGW_DATA_DIR/mail}"
}

wait_for() {  # wait_for WHAT SECONDS COMMAND...
  local what="$1" seconds="$2"; shift 2
  for _ in $(seq 1 $((seconds * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  die "$what did not become healthy in ${seconds}s (logs: $LOG_DIR)"
}

# An instance logs as its worker (sender-2 logs "worker sender started").
worker_started() { is_running "$1" && grep -q "worker ${2:-$1} started" "$LOG_DIR/$1.log"; }

start_services() {
  service_env
  start_broker
  start_ours
}

# Everything of ours on the running broker and PostgreSQL: the migrations, the simulator, the API
# and the workers (ops/bench/pipeline-cost moves them from one broker to another).
start_ours() {
  local bin="$SMSGW_BUILD_DIR"
  service_env
  "$bin/db/smsgw-migrate" >&2
  start carrier-sim "$bin/ops/smsgw-carrier-sim" --host 127.0.0.1 --port "$SIM_PORT"
  start api "$bin/api/smsgw-api"
  local w instance
  for w in "${WORKERS[@]}"; do
    for instance in $(worker_instances "$w"); do start "$instance" "$bin/workers/smsgw-$w"; done
  done
  wait_for "the carrier simulator" 30 curl -fsS "http://127.0.0.1:$SIM_PORT/health"
  wait_for "the API" 60 curl -fsS "http://127.0.0.1:$API_PORT/health"
  for w in "${WORKERS[@]}"; do
    for instance in $(worker_instances "$w"); do
      wait_for "worker $instance" 60 worker_started "$instance" "$w"
    done
  done
}

# Debian's Prometheus server, scraping the API and every worker instance every 5 s with the
# recording and alerting rules of ops/observe/rules.yml; its own data lives in the data folder.
start_observer() {
  if ! command -v prometheus >/dev/null; then
    log "installing: prometheus"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  fi
  local dir="$SMSGW_DATA_DIR/prometheus" w instance
  mkdir -p "$dir/data"
  {
    echo "global: {scrape_interval: 5s, evaluation_interval: 5s}"
    echo "rule_files: ['$REPO_ROOT/ops/observe/rules.yml']"
    echo "scrape_configs:"
    echo "  - job_name: smsgw"
    echo "    static_configs:"
    echo "      - {targets: ['127.0.0.1:$(metrics_port_of api)'], labels: {process: api}}"
    for w in "${WORKERS[@]}"; do
      for instance in $(worker_instances "$w"); do
        echo "      - {targets: ['127.0.0.1:$(metrics_port_of "$instance")'], labels: {process: $instance}}"
      done
    done
  } > "$dir/prometheus.yml"
  start prometheus prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
    --web.listen-address="127.0.0.1:$PROMETHEUS_PORT"
  wait_for "prometheus" 60 curl -fsS "http://127.0.0.1:$PROMETHEUS_PORT/-/ready"
}

stop_services() {
  stop prometheus
  stop_ours
  stop broker
  rm -f "$BOOTSTRAP_FILE"
}

stop_ours() {
  local w instance
  for w in "${WORKERS[@]}"; do
    for instance in $(running_worker_instances "$w"); do stop "$instance"; done
  done
  stop api
  stop carrier-sim
}

print_status() {
  printf '%-20s %-8s %-10s %s\n' PROCESS STATE READY DETAIL
  local bin; bin="$(pg_bin)"
  locate_pg_dir
  if [ -f "$PG_DIR/PG_VERSION" ] && as_pg "$bin/pg_ctl" -D "$PG_DIR" status >/dev/null 2>&1; then
    printf '%-20s %-8s %-10s %s\n' postgresql up - "$(database_url)"
  else
    printf '%-20s %-8s\n' postgresql down
  fi
  local w names=(broker carrier-sim api)
  is_running prometheus && names+=(prometheus)
  for w in "${WORKERS[@]}"; do
    mapfile -t -O "${#names[@]}" names < <(running_worker_instances "$w")
    [ -f "$RUN_DIR/$w.pid" ] || names+=("$w")
  done
  for name in "${names[@]}"; do
    local detail=""
    case "$name" in
      broker) [ -s "$BOOTSTRAP_FILE" ] && detail="bootstrap $(cat "$BOOTSTRAP_FILE") (file $BOOTSTRAP_FILE)";;
      carrier-sim) detail="http://127.0.0.1:$SIM_PORT";;
      api) detail="http://$SMSGW_BIND_HOST:$API_PORT";;
      prometheus) detail="http://127.0.0.1:$PROMETHEUS_PORT (graphs, alerts: /alerts)";;
    esac
    local port; port="$(metrics_port_of "$name")"
    [ "$port" != 0 ] && detail="$detail metrics http://127.0.0.1:$port/metrics"
    if is_running "$name"; then
      printf '%-20s %-8s %-10s %s\n' "$name" up "$(readiness_of "$name")" "pid $(cat "$RUN_DIR/$name.pid") $detail"
    elif [ -f "$RUN_DIR/$name.pid" ]; then
      printf '%-20s %-8s %-10s %s\n' "$name" dead - "pid $(cat "$RUN_DIR/$name.pid") is gone; its log: $LOG_DIR/$name.log"
    else
      printf '%-20s %-8s\n' "$name" down
    fi
    local error; error="$(last_error_of "$name")"
    [ -n "$error" ] && printf '%-20s %s\n' "" "$error"
  done
  echo "logs: $LOG_DIR"
}

source "$REPO_ROOT/ops/lib/kafka.sh"
