#pragma once
// What each kind of gateway process may do on a Kafka cluster that authenticates its clients
// (SASL/SCRAM, deploy/compose.yaml): one Kafka user per process kind, named as the process is
// (api, sender, receipt, ...), and the ACLs that let it do its work and nothing else. Pure: the
// catalogue decides; topics/topic_admin.h creates them (`smsgw-admin topics create --acls`).
//
// Every kind may write every catalogue topic and its dead-letter topic: any process can lead
// the outbox relay, which publishes them all, and any consumer dead-letters what it cannot
// handle. Only a topic's own worker reads it (its dead letters too, for a replay), in its own
// consumer groups (smsgw.<worker>, and the ones a replay names after it). Every kind may see
// how far each group has read (the reconciler compares it with the database). Anything else,
// creating topics and ACLs included, is the operator's (a super user the brokers name).

#include <string>
#include <string_view>
#include <vector>

namespace smsgw::topics {

enum class KafkaResource { Topic, Group, Cluster };
enum class KafkaOperation { Read, Write, Describe, IdempotentWrite };

struct KafkaGrant {
  KafkaResource resource;
  std::string name;  // "kafka-cluster" for the cluster
  bool prefixed;     // the name is a prefix (Kafka's PREFIXED pattern) rather than literal
  KafkaOperation operation;
};

// The process kinds that get a Kafka user: the API and each worker of the catalogue.
std::vector<std::string> kafkaRoles();

// The grants of one kind; empty for a name that is no role.
std::vector<KafkaGrant> kafkaGrants(std::string_view role);

// The consumer group prefix of a worker: its group and the replay's groups start with it.
std::string consumerGroupOf(std::string_view worker);

}  // namespace smsgw::topics
