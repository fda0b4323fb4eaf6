# Shared by the send benchmarks (sourced from the repository root): the bench stack's
# settings, a fresh seeded stack, and waiting for the sender to work off its queue.
# The stack has its own data folder and ports, so it runs beside a development stack.
# The broker too: on the development stack's port, the bench would find that broker already
# listening and share it, and the development stack's workers would join the bench's consumer
# groups and take its records.
export SMSGW_DATA_DIR="$PWD/.data/bench" PG_PORT=16432 API_PORT=8180 SIM_PORT=8190 METRICS_BASE_PORT=17400
export BROKER_PORT=16092
export SMSGW_BUILD_DIR="${SMSGW_BUILD_DIR:-$PWD/build}"
# Pacing raised so that hand-off times measure the pipeline, not the 10 parts a minute a
# local number may send; limits raised so that no check refuses the load.
export LOCAL_PARTS_PER_MINUTE=6000000 API_RATE_LIMIT_PER_SECOND=1000000 API_THREADS="${API_THREADS:-4}"
export API_DB_POOL_SIZE="${API_DB_POOL_SIZE:-16}" DAILY_SEND_LIMIT=10000000 SIM_RECEIPT_DELAY_MS=300
# PostgreSQL sized as the minimal charge reference sizes its own (shared_buffers 1 GB), with room
# for WAL between checkpoints: with the default 128 MB, a table of millions of rows is measured
# through backends evicting dirty pages themselves and checkpoints forced every few seconds.
export BENCH_PG_OPTIONS="-c shared_buffers=1GB -c max_wal_size=4GB"
export PG_OPTIONS="$BENCH_PG_OPTIONS ${PG_OPTIONS:-}"
ACCOUNTS=40
# Enough recipients that a whole run (about 400,000 sends with pgbench's) stays well under the
# 30-per-recipient hourly limit: each check still runs, none refuses.
RECIPIENTS=1000
DB="host=127.0.0.1 port=$PG_PORT dbname=smsgw user=smsgw"
API="http://127.0.0.1:$API_PORT"
TUPLES="$SMSGW_DATA_DIR/tuples.txt"
export BENCH_TUPLES="$TUPLES"

# A fresh stack, seeded: ACCOUNTS funded accounts with two numbers each and RECIPIENTS
# consented recipients per account; TUPLES lists (key, from, to) for ops/bench/send.lua.
bench_up() {
  command -v wrk >/dev/null || { echo "[bench] installing wrk"; apt-get install -y -qq wrk >/dev/null; }
  command -v pgbench >/dev/null || apt-get install -y -qq postgresql-contrib >/dev/null
  ops/down >/dev/null 2>&1 || true
  rm -rf "$SMSGW_DATA_DIR"
  ops/up >/dev/null
  local permissions='{"messages":"rwmd","compliance":"rwmd","phone_numbers":"rwmd"}'
  psql "$DB" -q -v ON_ERROR_STOP=1 -v accounts=$ACCOUNTS -v recipients=$RECIPIENTS \
    -v permissions="$permissions" -f ops/bench/seed.sql
  psql "$DB" -At -F ' ' -c "SELECT 'mk_live_' || lpad(substr(c.account_id, 10), 32, '0'), \
    '+1613' || (4000000 + substr(c.account_id, 10)::int * 10 + 1 + (row_number() OVER () % 2)), \
    c.phone_number FROM consents c WHERE c.id LIKE 'cns_bench%' ORDER BY c.id" > "$TUPLES"
}

queued() { psql "$DB" -At -c "SELECT count(*) FROM messages WHERE status = 'QUEUED'"; }
# Waits (at most 600 s) until the sender has handed off every queued message, so each phase
# starts on a quiet machine rather than beside the previous phase's backlog.
drain() {
  for _ in $(seq 1200); do
    [ "$(queued)" = 0 ] && return
    sleep 0.5
  done
  echo "[bench] warning: messages still queued after 600 s"
}

# One process at a time publishes the outbox (topics/outbox_relay.h), whichever took the lead
# first. A bench's phases pause the sender: were it the one publishing, the pause would stop
# publishing too (and the webhook dispatcher's work on the events), and the API's runs would be
# measured without the relay's work while the next size's ran with it. So when the sender
# leads, it is stopped until another process has taken over, then started again.
relay_leader() {
  psql "$DB" -At -c "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid) \
    WHERE l.locktype = 'advisory' AND l.classid = 0 AND l.objid = 727274002 AND l.granted"
}
# Stops the process leading the relay, waits until another took the lead, and starts it again.
restart_relay_leader() {
  local pid
  pid=$(cat "$SMSGW_DATA_DIR/run/$(relay_leader | sed 's/^smsgw-//').pid")
  kill -TERM "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  for _ in $(seq 50); do [ -n "$(relay_leader)" ] && break; sleep 0.2; done
  ops/up >/dev/null
}
# Sets SENDER_PID, and makes sure the sender is not the one publishing before a phase pauses it.
lead_relay_elsewhere() {
  for _ in $(seq 50); do [ -n "$(relay_leader)" ] && break; sleep 0.2; done
  if [ "$(relay_leader)" = smsgw-sender ]; then
    echo "[bench] the sender leads the outbox relay; handing the lead to another process"
    restart_relay_leader
  fi
  echo "[bench] the outbox relay is led by $(relay_leader)"
  SENDER_PID=$(cat "$SMSGW_DATA_DIR/run/sender.pid")
  trap 'start_sender' EXIT
}
# The sender is stopped, not frozen: a SIGSTOP could catch it inside a transaction, whose
# snapshot then holds back the outbox relay and every page's pruning for the whole phase (the
# hot rows' update chains grow and each round runs slower than the one before).
pause_sender() {
  kill -TERM "$SENDER_PID" 2>/dev/null || true
  while kill -0 "$SENDER_PID" 2>/dev/null; do sleep 0.1; done
}
start_sender() {
  kill -0 "$SENDER_PID" 2>/dev/null && return
  ops/up >/dev/null
  SENDER_PID=$(cat "$SMSGW_DATA_DIR/run/sender.pid")
}
# Starts the sender again and prints how fast it works off the backlog the paused phases left.
resume_sender() {
  local backlog start
  backlog=$(queued) start=$(date +%s.%N)
  start_sender
  drain
  awk -v n="$backlog" -v s="$start" -v e="$(date +%s.%N)" \
    'BEGIN {printf "   the sender worked off %d queued messages at %.0f hand-offs/s\n", n, n / (e - s)}'
}

# paced_send DURATION RATE: sends at RATE a second in all, over 32 connections (send.lua's
# Poisson arrivals per connection); prints wrk's report.
paced_send() {
  RATE_PER_CONNECTION="$(awk -v r="$2" 'BEGIN {printf "%.2f", r / 32}')" \
    wrk -t2 -c32 -d"$1" --latency -s ops/bench/send.lua "$API"
}
# handoff_times SINCE: of the bench's messages created since SINCE (a timestamp), accepted ->
# handed to the carrier in ms: "count p50 p99 longest later_than_500ms".
handoff_times() {
  psql "$DB" -At -F ' ' -c "SELECT count(*), \
    round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1), \
    round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1), \
    round(max(ms)::numeric), count(*) FILTER (WHERE ms > 500) \
    FROM (SELECT extract(epoch FROM handoff_started_at - created_at) * 1000 AS ms \
    FROM messages WHERE account_id LIKE 'acc_bench%' AND created_at >= '$1') t"
}

# CPU seconds so far by process name, children that ended included (/proc/PID/stat fields
# 14-17 are in clock ticks). The broker in use is named "broker" whichever it is (the Kafka JVM
# or the mock; BENCH_BROKER_PID_FILE when not the stack's own), so that other JVMs on the box (a
# test's brokers, an idle Kafka beside the mock) are not counted as it.
cpu_by_name() {
  local tick broker_pid
  tick=$(getconf CLK_TCK)
  broker_pid=$(cat "${BENCH_BROKER_PID_FILE:-$SMSGW_DATA_DIR/run/broker.pid}" 2>/dev/null || echo none)
  for stat in /proc/[0-9]*/stat; do
    # The name is in parentheses and may hold spaces: split after the last ')'.
    line=$(cat "$stat" 2>/dev/null) || continue
    name=${line#*(}; name=${name%)*}
    rest=${line##*) }
    [ "${line%% *}" = "$broker_pid" ] && name=broker
    echo "${name// /_} $rest"
  done | awk -v t="$tick" '{a[$1] += ($13 + $14 + $15 + $16) / t} END {for (k in a) print k, a[k]}' | sort
}

# Waits until every message of a round is handed off and its receipt applied, and the outbox is
# published, so the round's CPU holds each message's whole life.
settle() {
  drain
  for _ in $(seq 240); do
    left=$(psql "$DB" -At -c "SELECT (SELECT count(*) FROM messages WHERE status IN ('QUEUED', 'SENDING') \
      AND created_at > now() - interval '10 minutes') + (SELECT count(*) FROM outbox_pending)")
    [ "$left" = 0 ] && break
    sleep 0.5
  done
  sleep 3  # the consumers of the last events
}

# cpu_per_message BEFORE AFTER N: from two cpu_by_name snapshots, each of our processes' and
# PostgreSQL's CPU milliseconds per message, their sum, the broker's, and what the simulator and
# wrk cost apart. The last line's second field is the sum without the broker (scripts read it);
# the line before it adds the broker.
cpu_per_message() {
  join "$1" "$2" | awk -v n="$3" '
    {ms = ($3 - $2) * 1000 / n}
    $1 == "postgres" || ($1 ~ /^smsgw-/ && $1 != "smsgw-carrier-s" && $1 != "smsgw-broker") {ours += ms; printf "   %-18s %6.3f ms/message\n", $1, ms; next}
    $1 == "broker" {broker = ms; printf "   %-18s %6.3f ms/message\n", "broker", ms; next}
    ($1 == "smsgw-carrier-s" || $1 == "wrk") && ms > 0.001 {apart = apart sprintf("%s %.3f, ", $1, ms)}
    END {sub(/, $/, "", apart); printf "   apart (ms/message): %s\n   with the broker: %.2f ms of CPU per message\n   our processes and PostgreSQL: %.2f ms of CPU per message\n", apart, ours + broker, ours}'
}

# minimal_charge: the reference every benchmark divides by (reference.sh).
source ops/bench/reference.sh
