#include "ops/admin/restore_audit.h"

#include <spdlog/spdlog.h>

#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "domain/ids.h"
#include "services/messaging/restore_audit.h"
#include "topics/catalogue.h"
#include "topics/producer.h"
#include "topics/records.h"
#include "topics/replay.h"
#include "topics/topic_admin.h"

namespace smsgw::admin {
namespace {

constexpr size_t kJudgedTogether = 500;
constexpr size_t kListedEvents = 100;

messaging::SeenEvent seenOf(const topics::EventRecord& event, const std::string& record) {
  messaging::SeenEvent seen{event.id, event.type, event.account_id, event.created, "", record};
  if (event.type.starts_with("message.") && event.data.is_object() &&
      event.data.value("message_id", nlohmann::json()).is_string())
    seen.message_id = event.data["message_id"].get<std::string>();
  return seen;
}

nlohmann::json eventJson(const messaging::SeenEvent& event) {
  return {{"id", event.id},
          {"type", event.type},
          {"account_id", event.account_id},
          {"created", event.created},
          {"message_id", event.message_id}};
}

// What the audit found so far, judged a batch at a time.
struct Tally {
  long long events_read = 0, unreadable = 0, missing = 0;
  std::map<std::string, long long> missing_by_type;
  std::set<std::string> accounts;
  nlohmann::json listed = nlohmann::json::array();
  std::set<std::string> sent_again;
  std::map<std::string, std::string> sent_records;    // message id: its message.sent, as read
  std::map<std::string, std::string> failed_records;  // message id: its message.failed
  std::vector<messaging::SeenEvent> unjudged;

  void judge(db::Database& db) {
    auto findings = messaging::judgeAfterRestore(db, unjudged);
    unjudged.clear();
    for (const auto& event : findings.missing) {
      ++missing;
      ++missing_by_type[event.type];
      accounts.insert(event.account_id);
      if (listed.size() < kListedEvents) listed.push_back(eventJson(event));
    }
    for (const auto& event : findings.sent_again) {
      sent_again.insert(event.message_id);
      if (event.type == "message.sent") sent_records[event.message_id] = event.record;
      if (event.type == "message.failed") failed_records[event.message_id] = event.record;
    }
  }
};

// A message the carrier took settles by its message.sent; one that failed before the carrier
// (no message.sent) by its message.failed.
bool settleMessage(db::Database& db, const Tally& tally, const std::string& id, TimePoint now) {
  if (auto sent = tally.sent_records.find(id); sent != tally.sent_records.end())
    return messaging::settleFromSentEvent(db, sent->second, now);
  if (auto failed = tally.failed_records.find(id); failed != tally.failed_records.end())
    return messaging::settleFromFailedEvent(db, failed->second, now);
  return false;
}

}  // namespace

int auditRestore(db::Database& db, const KafkaSettings& kafka, TimePoint since, bool settle,
                 TimePoint now) {
  if (kafka.brokers.empty()) {
    std::cerr << "smsgw-admin: set KAFKA_BROKERS (or KAFKA_BOOTSTRAP_FILE)\n";
    return 2;
  }
  std::string topic(topics::kEvents.name);
  topics::ConsumerConfig config{
      kafka.brokers, "smsgw-restore-audit-" + randomBase62(8), {topic}, 6000, kafka.properties};
  Tally tally;
  spdlog::set_level(spdlog::level::warn);  // not a line per event read: the summary says it
  try {
    topics::ReplayRequest request;
    request.topic = topic;
    request.from_time_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(since.time_since_epoch()).count();
    auto spans = topics::planReplay(config, request);
    topics::Producer unused_dead_letters(kafka.brokers, "smsgw-restore-audit", kafka.properties);
    topics::RecordRunner runner(config, unused_dead_letters, [&](const topics::Record& record) {
      ++tally.events_read;
      try {
        tally.unjudged.push_back(
            seenOf(topics::EventRecord::parse(record.payload), record.payload));
      } catch (const std::exception&) {
        ++tally.unreadable;  // not an event this gateway wrote: nothing to set against
      }
      if (tally.unjudged.size() >= kJudgedTogether) tally.judge(db);
      topics::Outcome read_only;
      read_only.applied = false;
      return read_only;
    });
    topics::ReplayOptions options;
    options.keep_committed = false;
    topics::runReplay(config, spans, runner, options, topics::stopOnSignals());
    tally.judge(db);
  } catch (const std::exception& e) {
    std::cerr << "smsgw-admin: restore audit failed: " << e.what() << "\n";
    return 1;
  }
  // The audit's group is its own: it goes with the audit rather than staying on the cluster.
  bool group_deleted = true;
  try {
    topics::deleteConsumerGroup(kafka.brokers, kafka.properties, config.group_id);
  } catch (const std::exception& e) {
    group_deleted = false;
    std::cerr << "smsgw-admin: the audit's consumer group " << config.group_id
              << " stays on the cluster: " << e.what() << "\n";
  }
  // Settling is what the sender would have recorded, had this database seen it.
  nlohmann::json settled = nlohmann::json::array(), unsettled = nlohmann::json::array();
  for (const auto& id : tally.sent_again) {
    bool done = settle && settleMessage(db, tally, id, now);
    (done ? settled : unsettled).push_back(id);
  }
  nlohmann::json out = {{"since", formatIso(since)},
                        {"events_read", tally.events_read},
                        {"unreadable", tally.unreadable},
                        {"missing", tally.missing},
                        {"missing_by_type", tally.missing_by_type},
                        {"accounts", tally.accounts},
                        {"missing_events", tally.listed},
                        {"sent_again", tally.sent_again.size()},
                        {"sent_again_messages", tally.sent_again},
                        {"settled", settled},
                        {"unsettled", unsettled},
                        {"consumer_group", config.group_id},
                        {"consumer_group_deleted", group_deleted}};
  std::cout << out.dump() << "\n";
  return 0;
}

}  // namespace smsgw::admin
