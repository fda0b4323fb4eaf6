#include "topics/topic_admin.h"

#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>

#include "topics/catalogue.h"
#include "topics/kafka_handles.h"
#include "topics/kafka_roles.h"

namespace smsgw::topics {
namespace {

constexpr int kTimeoutMs = 15000;

KafkaHandle adminClient(const std::string& brokers, const KafkaProperties& properties) {
  KafkaConf conf = newKafkaConf();
  setKafkaConf(conf.get(), "bootstrap.servers", brokers);
  setKafkaConfs(conf.get(), properties);
  return newKafka(RD_KAFKA_PRODUCER, std::move(conf));
}

std::vector<TopicState> expected() {
  std::vector<TopicState> topics;
  for (const auto& topic : allTopics()) {
    topics.push_back({std::string(topic.name), topic.partitions, 0});
    topics.push_back({deadLetterTopic(topic.name), kDeadLetterPartitions, 0});
  }
  return topics;
}

std::vector<TopicState> describe(rd_kafka_t* client) {
  const rd_kafka_metadata_t* raw = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(client, 1, nullptr, &raw, kTimeoutMs);
  if (err) throw std::runtime_error(std::string("cluster metadata: ") + rd_kafka_err2str(err));
  KafkaMetadata metadata(raw);
  auto topics = expected();
  for (auto& topic : topics) {
    for (int i = 0; i < metadata->topic_cnt; ++i) {
      const auto& found = metadata->topics[i];
      if (topic.name == found.topic && !found.err) topic.partitions_found = found.partition_cnt;
    }
  }
  return topics;
}

// Until the cluster's metadata lists `count` brokers, or `limit` passes (then it goes on, and
// the creation's own error says what is missing).
void waitForBrokers(rd_kafka_t* client, int count, std::chrono::seconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    const rd_kafka_metadata_t* raw = nullptr;
    if (!rd_kafka_metadata(client, 0, nullptr, &raw, 2000)) {
      KafkaMetadata metadata(raw);
      if (metadata->broker_cnt >= count) return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}

// A controller that has created a topic answers before every broker knows it: the metadata we
// read next may come from a broker still behind. Asks again until the topics show or time is up.
std::vector<TopicState> describeOnceCreated(rd_kafka_t* client) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kTimeoutMs);
  auto topics = describe(client);
  while (std::chrono::steady_clock::now() < deadline) {
    bool all_found = true;
    for (const auto& topic : topics) all_found = all_found && topic.partitions_found > 0;
    if (all_found) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    topics = describe(client);
  }
  return topics;
}

struct AdminDestroy {
  void operator()(rd_kafka_NewTopic_t* topic) const { rd_kafka_NewTopic_destroy(topic); }
  void operator()(rd_kafka_AclBinding_t* acl) const { rd_kafka_AclBinding_destroy(acl); }
  void operator()(rd_kafka_DeleteGroup_t* group) const { rd_kafka_DeleteGroup_destroy(group); }
  void operator()(rd_kafka_queue_t* queue) const { rd_kafka_queue_destroy(queue); }
  void operator()(rd_kafka_event_t* event) const { rd_kafka_event_destroy(event); }
  void operator()(rd_kafka_AdminOptions_t* options) const {
    rd_kafka_AdminOptions_destroy(options);
  }
};

// The answer to an admin request made on `queue`; throws when none came or the request as a
// whole failed (each item's own error is the caller's to read).
std::unique_ptr<rd_kafka_event_t, AdminDestroy> awaitAdminAnswer(rd_kafka_queue_t* queue,
                                                                 const std::string& request) {
  std::unique_ptr<rd_kafka_event_t, AdminDestroy> event(
      rd_kafka_queue_poll(queue, kTimeoutMs + 5000));
  if (!event) throw std::runtime_error("the cluster did not answer " + request);
  if (rd_kafka_event_error(event.get()))
    throw std::runtime_error(request + ": " + rd_kafka_event_error_string(event.get()));
  return event;
}

}  // namespace

std::vector<TopicState> checkTopics(const std::string& brokers, const KafkaProperties& properties) {
  KafkaHandle client = adminClient(brokers, properties);
  return describe(client.get());
}

std::vector<TopicState> createMissingTopics(const std::string& brokers,
                                            const KafkaProperties& properties,
                                            int replication_factor,
                                            std::chrono::seconds broker_wait) {
  KafkaHandle client = adminClient(brokers, properties);
  waitForBrokers(client.get(), replication_factor, broker_wait);
  std::vector<std::unique_ptr<rd_kafka_NewTopic_t, AdminDestroy>> wanted;
  char err[512];
  for (const auto& topic : describe(client.get())) {
    if (topic.partitions_found > 0) continue;
    rd_kafka_NewTopic_t* created = rd_kafka_NewTopic_new(
        topic.name.c_str(), topic.partitions_expected, replication_factor, err, sizeof err);
    if (!created) throw std::runtime_error("topic " + topic.name + ": " + err);
    wanted.emplace_back(created);
    // With acks=all (topics/producer.h), a record is safe once two replicas hold it.
    if (replication_factor >= 3) rd_kafka_NewTopic_set_config(created, "min.insync.replicas", "2");
  }
  if (wanted.empty()) return describe(client.get());
  std::vector<rd_kafka_NewTopic_t*> list;
  list.reserve(wanted.size());
  for (auto& topic : wanted) list.push_back(topic.get());
  std::unique_ptr<rd_kafka_queue_t, AdminDestroy> queue(rd_kafka_queue_new(client.get()));
  std::unique_ptr<rd_kafka_AdminOptions_t, AdminDestroy> options(
      rd_kafka_AdminOptions_new(client.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS));
  rd_kafka_AdminOptions_set_operation_timeout(options.get(), kTimeoutMs, err, sizeof err);
  rd_kafka_CreateTopics(client.get(), list.data(), list.size(), options.get(), queue.get());
  auto event = awaitAdminAnswer(queue.get(), "CreateTopics");
  const rd_kafka_CreateTopics_result_t* result = rd_kafka_event_CreateTopics_result(event.get());
  size_t count = 0;
  const rd_kafka_topic_result_t** results = rd_kafka_CreateTopics_result_topics(result, &count);
  for (size_t i = 0; i < count; ++i) {
    rd_kafka_resp_err_t topic_err = rd_kafka_topic_result_error(results[i]);
    if (topic_err && topic_err != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
      throw std::runtime_error(std::string("creating ") + rd_kafka_topic_result_name(results[i]) +
                               ": " + rd_kafka_topic_result_error_string(results[i]));
    }
  }
  return describeOnceCreated(client.get());
}

namespace {

rd_kafka_AclBinding_t* aclBinding(const std::string& role, const KafkaGrant& grant) {
  rd_kafka_ResourceType_t resource =
      grant.resource == KafkaResource::Topic   ? RD_KAFKA_RESOURCE_TOPIC
      : grant.resource == KafkaResource::Group ? RD_KAFKA_RESOURCE_GROUP
                                               : RD_KAFKA_RESOURCE_BROKER;
  rd_kafka_AclOperation_t operation =
      grant.operation == KafkaOperation::Read       ? RD_KAFKA_ACL_OPERATION_READ
      : grant.operation == KafkaOperation::Write    ? RD_KAFKA_ACL_OPERATION_WRITE
      : grant.operation == KafkaOperation::Describe ? RD_KAFKA_ACL_OPERATION_DESCRIBE
                                                    : RD_KAFKA_ACL_OPERATION_IDEMPOTENT_WRITE;
  char err[512];
  rd_kafka_AclBinding_t* acl = rd_kafka_AclBinding_new(
      resource, grant.name.c_str(),
      grant.prefixed ? RD_KAFKA_RESOURCE_PATTERN_PREFIXED : RD_KAFKA_RESOURCE_PATTERN_LITERAL,
      ("User:" + role).c_str(), "*", operation, RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW, err,
      sizeof err);
  if (!acl) throw std::runtime_error("ACL for " + role + " on " + grant.name + ": " + err);
  return acl;
}

}  // namespace

int grantProcessRoles(const std::string& brokers, const KafkaProperties& properties) {
  KafkaHandle client = adminClient(brokers, properties);
  std::vector<std::unique_ptr<rd_kafka_AclBinding_t, AdminDestroy>> acls;
  for (const auto& role : kafkaRoles()) {
    for (const auto& grant : kafkaGrants(role)) acls.emplace_back(aclBinding(role, grant));
  }
  std::vector<rd_kafka_AclBinding_t*> list;
  list.reserve(acls.size());
  for (auto& acl : acls) list.push_back(acl.get());
  std::unique_ptr<rd_kafka_queue_t, AdminDestroy> queue(rd_kafka_queue_new(client.get()));
  std::unique_ptr<rd_kafka_AdminOptions_t, AdminDestroy> options(
      rd_kafka_AdminOptions_new(client.get(), RD_KAFKA_ADMIN_OP_CREATEACLS));
  char err[512];
  rd_kafka_AdminOptions_set_request_timeout(options.get(), kTimeoutMs, err, sizeof err);
  rd_kafka_CreateAcls(client.get(), list.data(), list.size(), options.get(), queue.get());
  auto event = awaitAdminAnswer(queue.get(), "CreateAcls");
  size_t count = 0;
  const rd_kafka_acl_result_t** results =
      rd_kafka_CreateAcls_result_acls(rd_kafka_event_CreateAcls_result(event.get()), &count);
  for (size_t i = 0; i < count; ++i) {
    if (const rd_kafka_error_t* error = rd_kafka_acl_result_error(results[i])) {
      throw std::runtime_error(std::string("creating an ACL: ") + rd_kafka_error_string(error));
    }
  }
  return static_cast<int>(list.size());
}

void deleteConsumerGroup(const std::string& brokers, const KafkaProperties& properties,
                         const std::string& group) {
  KafkaHandle client = adminClient(brokers, properties);
  std::unique_ptr<rd_kafka_DeleteGroup_t, AdminDestroy> wanted(
      rd_kafka_DeleteGroup_new(group.c_str()));
  std::unique_ptr<rd_kafka_queue_t, AdminDestroy> queue(rd_kafka_queue_new(client.get()));
  std::unique_ptr<rd_kafka_AdminOptions_t, AdminDestroy> options(
      rd_kafka_AdminOptions_new(client.get(), RD_KAFKA_ADMIN_OP_DELETEGROUPS));
  char err[512];
  rd_kafka_AdminOptions_set_request_timeout(options.get(), kTimeoutMs, err, sizeof err);
  rd_kafka_DeleteGroup_t* list[] = {wanted.get()};
  rd_kafka_DeleteGroups(client.get(), list, 1, options.get(), queue.get());
  auto event = awaitAdminAnswer(queue.get(), "DeleteGroups");
  size_t count = 0;
  const rd_kafka_group_result_t** results =
      rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(event.get()), &count);
  for (size_t i = 0; i < count; ++i) {
    if (const rd_kafka_error_t* error = rd_kafka_group_result_error(results[i]))
      throw std::runtime_error("group " + group + ": " + rd_kafka_error_string(error));
  }
}

}  // namespace smsgw::topics
