#pragma once
// `smsgw-admin topics check|create`: the catalogue's topics on the cluster KAFKA_BROKERS names
// (with any KAFKA_* setting for SASL or TLS), one JSON object out.

#include <chrono>

#include "adapters/settings.h"

namespace smsgw::admin {

// Returns the exit code: 0 when every topic is there with its partitions, 1 otherwise (or when
// the cluster cannot be reached), 2 without a broker to ask. `create` waits up to
// `broker_wait` for as many brokers as replicas.
// `grant_roles`: then grants the process kinds' ACLs (topics/kafka_roles.h).
int manageTopics(const KafkaSettings& kafka, bool create, int replication_factor,
                 std::chrono::seconds broker_wait, bool grant_roles = false);

}  // namespace smsgw::admin
