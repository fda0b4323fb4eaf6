#pragma once
// The catalogue's topics on a real cluster (`smsgw-admin topics check|create`): whether each
// topic and its dead-letter topic exist with the partitions the catalogue gives, and creating
// the missing ones. The embedded broker creates them itself (ops/broker); a real Kafka needs
// this once per cluster (deploy/README.md).

#include <chrono>
#include <string>
#include <vector>

#include "topics/producer.h"

namespace smsgw::topics {

struct TopicState {
  std::string name;
  int partitions_expected = 0;
  int partitions_found = 0;  // 0: missing
  bool ok() const { return partitions_found == partitions_expected; }
};

// Every catalogue topic and its .dlq, as the cluster has them.
std::vector<TopicState> checkTopics(const std::string& brokers, const KafkaProperties& properties);

// Creates the missing ones with `replication_factor` replicas (existing topics are left as
// they are, even with other partition counts: that needs an operator). Returns the states after.
// Waits up to `broker_wait` for the cluster to have as many brokers as replicas: a job started
// with the cluster would otherwise meet the first broker alone. Throws std::runtime_error with
// the broker's reason when a creation fails.
std::vector<TopicState> createMissingTopics(
    const std::string& brokers, const KafkaProperties& properties, int replication_factor,
    std::chrono::seconds broker_wait = std::chrono::seconds(0));

// Grants each process kind's Kafka user (User:api, User:sender, ...) what topics/kafka_roles.h
// says, on a cluster with an authorizer; granting what is granted changes nothing. Returns how
// many ACLs were asked for. Throws std::runtime_error with the broker's reason.
int grantProcessRoles(const std::string& brokers, const KafkaProperties& properties);

// Deletes a consumer group that has no members left (a one-off reader's, such as the restore
// audit's), so that one-off readers do not pile up groups on the cluster. Throws
// std::runtime_error with the broker's reason when it refuses (a group still in use).
void deleteConsumerGroup(const std::string& brokers, const KafkaProperties& properties,
                         const std::string& group);

}  // namespace smsgw::topics
