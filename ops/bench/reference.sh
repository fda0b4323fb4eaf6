# Sourced by the benchmarks from the repository root.
# The reference: ../shared/bench/minimal-charge.sh (MINIMAL_CHARGE overrides), the bare charge
# transaction on its own PostgreSQL cluster. minimal_charge SECONDS runs it and prints its rate
# (sync commit, 8 clients) and the CPU one of its transactions costs: the box's cores, which it
# saturates, divided by that rate. A benchmark divides its own CPU per unit by the latter, so
# its figure holds across days when the box's speed drifts (issue 39).
MINIMAL_CHARGE="${MINIMAL_CHARGE:-../shared/bench/minimal-charge.sh}"
minimal_charge() {
  local rate
  rate=$(bash "$MINIMAL_CHARGE" "$1" 8 | sed -n '1s/.*: \([0-9.]*\) tx\/s/\1/p')
  awk -v r="$rate" -v cores="$(nproc)" 'BEGIN {printf "%.0f %.3f\n", r, cores * 1000 / r}'
  # Its cluster's processes are called postgres too: let them go before CPU is counted by name.
  sleep 3
}

