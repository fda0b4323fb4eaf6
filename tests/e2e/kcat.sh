#!/usr/bin/env bash
# kcat, a Kafka client nobody here wrote, on the test stack's broker (docs/operations.md, "Kafka's
# own tools on our topics"): it sees every catalogue topic with the catalogue's partitions, a
# keyed record with a header it writes to the scratch topic comes back whole, the broker's
# offsets-for-times finds that record's offset from the time just before it was written, and
# answers the query on `events` for every partition.
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
written_after=$(( $(date +%s%3N) - 1 ))
echo '{"probe":true}' | kcat -b "$brokers" -P -t it.scratch -k "$key" -H "origin=kcat-test"
read_back="$(kcat -b "$brokers" -C -t it.scratch -o beginning -e -q -f '%p|%o|%k|%h|%s\n' | grep "|$key|" || true)"
found="${read_back#*|*|}"
[ "$found" = "$key|origin=kcat-test|{\"probe\":true}" ] || fail "read back: '$read_back'"
echo "kcat wrote and read back $found"

# Offsets for the time just before that write, on its partition: a real offset (the first
# record at or after the time), at or before the record's own. The mock cluster answers -1.
partition="${read_back%%|*}" offset="$(echo "$read_back" | cut -d'|' -f2)"
at="$(kcat -b "$brokers" -Q -t "it.scratch:$partition:$written_after" | sed -n 's/^it.scratch \[[0-9]*\] offset \([0-9-]*\)$/\1/p')"
[ -n "$at" ] && [ "$at" -ge 0 ] && [ "$at" -le "$offset" ] ||
  fail "offsets for a time before the record at $partition/$offset: '$at'"
echo "kcat's offsets-for-times found offset $at on it.scratch/$partition (the record is at $offset)"

# Offsets for a time one hour ago: the broker answers for each partition of events.
hour_ago=$(( ($(date +%s) - 3600) * 1000 ))
partitions="$(kcat -b "$brokers" -L -t events -J | jq '.topics[0].partitions | length')"
query=()
for p in $(seq 0 $((partitions - 1))); do query+=(-t "events:$p:$hour_ago"); done
answered="$(kcat -b "$brokers" -Q "${query[@]}" | grep -c '^events \[[0-9]*\] offset [0-9-]*$' || true)"
[ "$answered" = "$partitions" ] || fail "offsets for a time: $answered of $partitions partitions answered"
echo "kcat's offsets-for-times answered for $answered partitions of events"
