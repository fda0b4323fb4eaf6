#include "ops/admin/topics.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "topics/topic_admin.h"

namespace smsgw::admin {

int manageTopics(const KafkaSettings& kafka, bool create, int replication_factor,
                 std::chrono::seconds broker_wait, bool grant_roles) {
  if (kafka.brokers.empty()) {
    std::cerr << "smsgw-admin: set KAFKA_BROKERS (or KAFKA_BOOTSTRAP_FILE)\n";
    return 2;
  }
  try {
    auto states = create ? topics::createMissingTopics(kafka.brokers, kafka.properties,
                                                       replication_factor, broker_wait)
                         : topics::checkTopics(kafka.brokers, kafka.properties);
    nlohmann::json out = {{"brokers", kafka.brokers}, {"topics", nlohmann::json::array()}};
    bool all_ok = true;
    for (const auto& topic : states) {
      out["topics"].push_back({{"name", topic.name},
                               {"partitions_expected", topic.partitions_expected},
                               {"partitions_found", topic.partitions_found},
                               {"ok", topic.ok()}});
      all_ok = all_ok && topic.ok();
    }
    if (grant_roles) out["acls"] = topics::grantProcessRoles(kafka.brokers, kafka.properties);
    out["ok"] = all_ok;
    std::cout << out.dump() << "\n";
    return all_ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "smsgw-admin: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace smsgw::admin
