# The local Apache Kafka broker of ops/up and ops/test (sourced by stack.sh): one KRaft node that
# is both broker and controller, on 127.0.0.1 with a bounded heap. Its jars are fetched once
# through Maven (ops/broker/kafka/pom.xml pins the version) into a cache that later runs and
# other clones reuse; its storage is formatted on the first start and lives in the data folder,
# so it survives ops/down and ops/up as PostgreSQL's does. The catalogue's topics are created
# with `smsgw-admin topics create` (CreateTopics, partitions and settings from the catalogue).
# SMSGW_BROKER=mock runs the embedded librdkafka mock cluster instead (ops/broker/main.cpp).

: "${SMSGW_BROKER:=kafka}"
: "${BROKER_PORT:=19092}"  # clients; the controller listens on the next port
: "${BROKER_HEAP:=512m}"
: "${SMSGW_CACHE_DIR:=${XDG_CACHE_HOME:-$HOME/.cache}/smsgw}"
export SMSGW_CACHE_DIR  # ops/broker/kafka-node reads the jars from it
# Kafka answers a waiting fetch as soon as records arrive, so the workers wait up to 500 ms
# there; the mock holds every fetch the full time, so on it they wait 20 ms.
if [ "$SMSGW_BROKER" = mock ]; then export KAFKA_FETCH_WAIT_MAX_MS="${KAFKA_FETCH_WAIT_MAX_MS:-20}"; fi
KAFKA_POM="$REPO_ROOT/ops/broker/kafka/pom.xml"
KAFKA_LOG_CONFIG="$REPO_ROOT/ops/broker/kafka/log4j2.properties"
KAFKA_DIR="$SMSGW_DATA_DIR/kafka"

kafka_version() { sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$KAFKA_POM"; }
kafka_libs() { echo "$SMSGW_CACHE_DIR/kafka-$(kafka_version)/libs"; }

# Java and Maven (the machines come with both; a bare Debian gets them from its packages), then
# the broker's jars unless the cache holds them already.
install_kafka() {
  local missing=()
  command -v java >/dev/null || missing+=(default-jre-headless)
  command -v mvn >/dev/null || missing+=(maven)
  if [ "${#missing[@]}" -gt 0 ]; then
    log "installing: ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  local libs; libs="$(kafka_libs)"
  [ -f "$libs/.complete" ] && return 0
  log "fetching Apache Kafka $(kafka_version) from Maven Central into $libs"
  rm -rf "$libs" && mkdir -p "$libs" "$LOG_DIR"
  mvn -B -f "$KAFKA_POM" dependency:copy-dependencies -DoutputDirectory="$libs" \
    > "$LOG_DIR/maven.log" 2>&1 || die "could not fetch Apache Kafka through Maven ($LOG_DIR/maven.log)"
  touch "$libs/.complete"
}

# kafka_java CLASS ARGS...: one of Kafka's own classes (a tool) with the cached jars.
kafka_java() {
  java -Xmx256m -Dlog4j2.configurationFile="$KAFKA_LOG_CONFIG" -cp "$(kafka_libs)/*" "$@"
}

# kafka_topic NAME PARTITIONS: creates a topic outside the catalogue unless it exists.
kafka_topic() {
  kafka_java org.apache.kafka.tools.TopicCommand --bootstrap-server "127.0.0.1:$BROKER_PORT" \
    --create --if-not-exists --topic "$1" --partitions "$2" --replication-factor 1 >/dev/null 2>&1
}

# Creates the catalogue's topics, then any SMSGW_EXTRA_TOPICS ("NAME:PARTITIONS ...") each with
# its one-partition .dlq, as the catalogue's have; true when every one is there.
create_kafka_topics() {
  SMSGW_ENVIRONMENT=local KAFKA_BROKERS="127.0.0.1:$BROKER_PORT" \
    "$SMSGW_BUILD_DIR/ops/smsgw-admin" topics create --replication-factor 1 >/dev/null 2>&1 || return 1
  local topic
  for topic in ${SMSGW_EXTRA_TOPICS:-}; do
    kafka_topic "${topic%%:*}" "${topic##*:}" && kafka_topic "${topic%%:*}.dlq" 1 || return 1
  done
}

kafka_listens() { (exec 3<>"/dev/tcp/127.0.0.1/$BROKER_PORT") 2>/dev/null; }

# A cluster's id: 16 random bytes in base64url, as Kafka's StorageTool random-uuid gives (not
# starting with '-', which the tool would read as an option).
new_cluster_id() {
  local id="-"
  while [ "${id:0:1}" = "-" ]; do id="$(head -c16 /dev/urandom | base64 | tr '+/' '-_' | cut -c1-22)"; done
  echo "$id"
}

start_kafka() {
  install_kafka
  [ -f "$KAFKA_DIR/data/meta.properties" ] || log "formatting the Kafka broker's storage in $KAFKA_DIR/data"
  start broker "$REPO_ROOT/ops/broker/kafka-node" --dir "$KAFKA_DIR" --node-id 1 \
    --port "$BROKER_PORT" --voters "1@127.0.0.1:$((BROKER_PORT + 1))" \
    --cluster-id "$(new_cluster_id)" --heap "$BROKER_HEAP"
  wait_for "the Kafka broker" 90 kafka_listens
  wait_for "the catalogue's topics on the Kafka broker" 60 create_kafka_topics
  echo "127.0.0.1:$BROKER_PORT" > "$BOOTSTRAP_FILE"
}

start_broker() {
  if [ "$SMSGW_BROKER" = mock ]; then
    if ! is_running broker; then rm -f "$BOOTSTRAP_FILE"; fi
    local extra=() topic
    for topic in ${SMSGW_EXTRA_TOPICS:-}; do extra+=(--extra-topic "$topic"); done
    start broker "$SMSGW_BUILD_DIR/ops/smsgw-broker" --bootstrap-file "$BOOTSTRAP_FILE" "${extra[@]}"
    wait_for "the broker" 30 test -s "$BOOTSTRAP_FILE"
  else
    start_kafka
  fi
}
