#include "topics/kafka_roles.h"

#include <algorithm>

#include "topics/catalogue.h"

namespace smsgw::topics {

namespace {

// The default KAFKA_GROUP_PREFIX (workers/runtime/run_worker.h): a group is prefix.worker.
constexpr std::string_view kGroupPrefix = "smsgw.";

bool isRole(std::string_view role) {
  auto roles = kafkaRoles();
  return std::find(roles.begin(), roles.end(), role) != roles.end();
}

}  // namespace

std::vector<std::string> kafkaRoles() {
  std::vector<std::string> roles{"api"};
  for (const auto& topic : allTopics()) {
    if (!topic.consumer.empty() &&
        std::find(roles.begin(), roles.end(), topic.consumer) == roles.end()) {
      roles.emplace_back(topic.consumer);
    }
  }
  return roles;
}

std::string consumerGroupOf(std::string_view worker) {
  return std::string(kGroupPrefix) + std::string(worker);
}

std::vector<KafkaGrant> kafkaGrants(std::string_view role) {
  if (!isRole(role)) return {};
  std::vector<KafkaGrant> grants{
      {KafkaResource::Cluster, "kafka-cluster", false, KafkaOperation::IdempotentWrite},
      {KafkaResource::Group, std::string(kGroupPrefix), true, KafkaOperation::Describe},
  };
  for (const auto& topic : allTopics()) {
    for (const std::string& name : {std::string(topic.name), deadLetterTopic(topic.name)}) {
      grants.push_back({KafkaResource::Topic, name, false, KafkaOperation::Write});
      grants.push_back({KafkaResource::Topic, name, false, KafkaOperation::Describe});
      if (topic.consumer == role) {
        grants.push_back({KafkaResource::Topic, name, false, KafkaOperation::Read});
      }
    }
  }
  if (role != "api") {
    grants.push_back({KafkaResource::Group, consumerGroupOf(role), true, KafkaOperation::Read});
  }
  return grants;
}

}  // namespace smsgw::topics
