// The Kafka users of a cluster with SASL and ACLs (topics/kafka_roles.h): each process kind
// reads only its own topics, in its own groups, and may write every topic.
#include "topics/kafka_roles.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace smsgw::topics {
namespace {

bool granted(std::string_view role, KafkaResource resource, const std::string& name,
             KafkaOperation operation) {
  for (const auto& grant : kafkaGrants(role)) {
    if (grant.resource != resource || grant.operation != operation) continue;
    if (grant.prefixed ? name.starts_with(grant.name) : name == grant.name) return true;
  }
  return false;
}

TEST(KafkaRoles, AreTheApiAndEachWorkerOfTheCatalogue) {
  EXPECT_EQ(kafkaRoles(), (std::vector<std::string>{"api", "sender", "receipt", "inbound-keyword",
                                                    "webhook-dispatcher", "rent-billing"}));
}

TEST(KafkaRoles, AWorkerReadsItsOwnTopicAndDeadLettersInItsOwnGroupsOnly) {
  EXPECT_TRUE(granted("sender", KafkaResource::Topic, "sms.outbound", KafkaOperation::Read));
  EXPECT_TRUE(granted("sender", KafkaResource::Topic, "sms.outbound.dlq", KafkaOperation::Read));
  EXPECT_TRUE(granted("sender", KafkaResource::Group, "smsgw.sender", KafkaOperation::Read));
  EXPECT_TRUE(
      granted("sender", KafkaResource::Group, "smsgw.sender.replay.plan", KafkaOperation::Read));
  EXPECT_FALSE(granted("sender", KafkaResource::Topic, "sms.inbound", KafkaOperation::Read));
  EXPECT_FALSE(granted("sender", KafkaResource::Topic, "events", KafkaOperation::Read));
  EXPECT_FALSE(granted("sender", KafkaResource::Group, "smsgw.receipt", KafkaOperation::Read));
  EXPECT_TRUE(granted("receipt", KafkaResource::Topic, "carrier.receipts", KafkaOperation::Read));
  EXPECT_FALSE(granted("receipt", KafkaResource::Topic, "sms.outbound", KafkaOperation::Read));
}

TEST(KafkaRoles, TheApiReadsNoTopicAndJoinsNoGroup) {
  for (const auto& grant : kafkaGrants("api")) {
    EXPECT_NE(grant.operation, KafkaOperation::Read) << grant.name;
  }
}

TEST(KafkaRoles, EveryRoleWritesEveryTopicAndSeesEveryGroupsProgress) {
  // Any process may lead the outbox relay, and any consumer dead-letters.
  for (const auto& role : kafkaRoles()) {
    for (const char* topic : {"sms.outbound", "carrier.receipts", "sms.inbound", "events",
                              "billing.rent", "accounts.trail", "events.dlq"}) {
      EXPECT_TRUE(granted(role, KafkaResource::Topic, topic, KafkaOperation::Write))
          << role << " " << topic;
    }
    EXPECT_TRUE(
        granted(role, KafkaResource::Group, "smsgw.webhook-dispatcher", KafkaOperation::Describe))
        << role;
    EXPECT_TRUE(
        granted(role, KafkaResource::Cluster, "kafka-cluster", KafkaOperation::IdempotentWrite));
  }
}

TEST(KafkaRoles, ANameThatIsNoRoleGetsNothing) {
  EXPECT_TRUE(kafkaGrants("admin").empty());
  EXPECT_TRUE(kafkaGrants("").empty());
}

}  // namespace
}  // namespace smsgw::topics
