#!/usr/bin/env bash
# What can be tested of deploy/ without a container engine (deploy/README.md):
# - the runtime stage installs the owner of every library the image's executables and the
#   project's shared libraries load (deploy/runtime-packages.txt);
# - the Dockerfile builds with ops/build, the script ops/up and ops/test build with;
# - every service of compose.yaml runs an executable the image holds, the topics job creates
#   the catalogue's topics, each worker has replicas, and the three brokers are built from
#   deploy/kafka (the node script and jars the tests run) as one quorum.
# Usage: check_image.sh BUILD_DIR
set -euo pipefail
build="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
failed=0
fail() { echo "FAIL: $*"; failed=1; }

listed=$(grep -v '^#' "$root/deploy/runtime-packages.txt")
binaries=$(cd "$build" && find . -type f \( -name 'smsgw-*' -perm -u+x -o -name 'libsmsgw_*.so' \) \
  -not -path './tests/*')
needed=$(cd "$build" && echo "$binaries" | xargs -n1 readelf -d | awk '/NEEDED/ {gsub(/[][]/, "", $5); print $5}' \
  | sort -u | grep -v '^libsmsgw_')
cache=$(ldconfig -p)
for library in $needed; do
  path=$(awk -v name="$library" '$1 == name {print $NF; exit}' <<< "$cache")
  [ -n "$path" ] || { fail "$library is not installed here"; continue; }
  owner=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -n1 | cut -d: -f1) \
    || owner=$(dpkg -S "$path" 2>/dev/null | head -n1 | cut -d: -f1) || owner=""
  case "$owner" in
    libc6|libgcc-s1|"") continue;;  # in debian:12-slim itself
    libasan*|libubsan*) continue;;  # a sanitizer build (ops/test), never an image
  esac
  grep -qx "$owner" <<< "$listed" || fail "$library comes from $owner, missing in deploy/runtime-packages.txt"
done

grep -q 'ops/build' "$root/deploy/Dockerfile" || fail "deploy/Dockerfile does not build with ops/build"
grep -q '"$REPO_ROOT/ops/build"' "$root/ops/up" || fail "ops/up does not build with ops/build"

python3 - "$root/deploy/compose.yaml" "$build" <<'PY' || failed=1
import base64, os, sys, yaml
compose = yaml.safe_load(open(sys.argv[1]))
build = sys.argv[2]
images = {os.path.basename(p) for d in ("api", "workers", "ops", "db")
          for p in os.listdir(os.path.join(build, d)) if p.startswith("smsgw-")}
ok = True
for name, service in compose["services"].items():
    command = service.get("command")
    if command and command[0] not in images:
        print(f"FAIL: service {name} runs {command[0]}, which the image does not hold"); ok = False
for worker in ("sender", "receipt", "inbound-keyword", "webhook-dispatcher", "rent-billing"):
    replicas = compose["services"].get(worker, {}).get("deploy", {}).get("replicas", 1)
    if replicas < 2:
        print(f"FAIL: {worker} runs {replicas} replica(s)"); ok = False
if compose["services"]["topics"]["command"][:3] != ["smsgw-admin", "topics", "create"]:
    print("FAIL: the topics job does not create the catalogue's topics"); ok = False
kafka = [n for n in compose["services"] if n.startswith("kafka-")]
if len(kafka) != 3:
    print(f"FAIL: {len(kafka)} Kafka brokers, not 3"); ok = False
# The brokers are built from the node script and the pinned jars the tests run, as one quorum of
# three with a cluster id Kafka can read.
for name in kafka:
    service = compose["services"][name]
    if service.get("build", {}).get("dockerfile") != "deploy/kafka/Dockerfile":
        print(f"FAIL: {name} is not built from deploy/kafka/Dockerfile"); ok = False
    environment = service["environment"]
    cluster_id = environment["KAFKA_CLUSTER_ID"]
    try:
        valid = len(cluster_id) == 22 and len(base64.urlsafe_b64decode(cluster_id + "==")) == 16
    except ValueError:
        valid = False
    if not valid:
        print(f"FAIL: {name}'s KAFKA_CLUSTER_ID {cluster_id} is not 16 bytes of base64url"); ok = False
    if len(environment["KAFKA_VOTERS"].split(",")) != 3:
        print(f"FAIL: {name}'s quorum is not the three brokers"); ok = False
    if environment.get("KAFKA_ADVERTISE") != name:
        print(f"FAIL: {name} does not advertise itself by its name"); ok = False
sys.exit(0 if ok else 1)
PY
[ "$failed" = 0 ] && echo "deploy/: every check passed ($(echo "$needed" | wc -w) libraries loaded directly)"
exit "$failed"
