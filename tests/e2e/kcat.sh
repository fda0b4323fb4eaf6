#!/usr/bin/env bash
# kcat, a Kafka client nobody here wrote, on the test stack's broker (docs/operations.md, "Kafka's
# own tools on our topics"): it sees every catalogue topic with the catalogue's partitions, a
# keyed record with a header it writes to the scratch topic comes back whole, and the broker
# answers its offsets-for-times query on `events` for every partition.
# Usage: kcat.sh SMSGW_ADMIN (reads KAFKA_BOOTSTRAP_FILE, as ops/test exports it).
set -euo pipefail
admin="$1"
brokers="$(cat "$KAFKA_BOOTSTRAP_FILE")"
fail() { echo "FAIL: $*" >&2; exit 1; }

# Every topic (and dead-letter topic) of the catalogue, with the partitions kcat sees.
expected="$(KAFKA_BROKERS="$brokers" SMSGW_ENVIRONMENT=local "$admin" topics check \
  | jq -r '.topics[] | "\(.name) \(.partitions_expected)"' | sort)"
[ -n "$expected" ] || fail "smsgw-admin topics check named no topic"
seen="$(kcat -b "$brokers" -L -J | jq -r '.topics[] | "\(.topic) \(.partitions | length)"' | sort)"
missing="$(comm -23 <(echo "$expected") <(echo "$seen"))"
[ -z "$missing" ] || fail "kcat does not see, with these partitions: $missing"
echo "kcat sees the $(echo "$expected" | wc -l) catalogue topics with their partitions"

# A record with a key and a header, written and read back by kcat.
key="kcat-$(date +%s%N)"
echo '{"probe":true}' | kcat -b "$brokers" -P -t it.scratch -k "$key" -H "origin=kcat-test"
found="$(kcat -b "$brokers" -C -t it.scratch -o beginning -e -q -f '%k|%h|%s\n' | grep "^$key|" || true)"
[ "$found" = "$key|origin=kcat-test|{\"probe\":true}" ] || fail "read back: '$found'"
echo "kcat wrote and read back $found"

# Offsets for a time one hour ago: the broker answers for each partition of events.
hour_ago=$(( ($(date +%s) - 3600) * 1000 ))
partitions="$(kcat -b "$brokers" -L -t events -J | jq '.topics[0].partitions | length')"
query=()
for p in $(seq 0 $((partitions - 1))); do query+=(-t "events:$p:$hour_ago"); done
answered="$(kcat -b "$brokers" -Q "${query[@]}" | grep -c '^events \[[0-9]*\] offset [0-9-]*$' || true)"
[ "$answered" = "$partitions" ] || fail "offsets for a time: $answered of $partitions partitions answered"
echo "kcat's offsets-for-times answered for $answered partitions of events"
