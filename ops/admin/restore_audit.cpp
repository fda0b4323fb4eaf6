#include "ops/admin/restore_audit.h"

#include <spdlog/spdlog.h>

#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "domain/ids.h"
#include "services/accounts/restore_trail.h"
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

// What the account trail (migration 0031) says the restored database lost.
struct TrailTally {
  long long read = 0, unreadable = 0;
  std::vector<accounts::TrailRecord> unjudged;
  accounts::TrailFindings found;

  void judge(db::Database& db) {
    auto findings = accounts::judgeTrailAfterRestore(db, unjudged);
    unjudged.clear();
    auto append = [](auto& into, const auto& from) {
      into.insert(into.end(), from.begin(), from.end());
    };
    append(found.missing_accounts, findings.missing_accounts);
    append(found.missing_keys, findings.missing_keys);
    append(found.missing_ledger_entries, findings.missing_ledger_entries);
    append(found.keys_active_again, findings.keys_active_again);
  }
};

// Reads `topic` from `since` on, as a member of `group` that commits nothing, handing each
// record to `read`. Throws when the broker cannot be read.
void readSince(const KafkaSettings& kafka, const std::string& group, const std::string& topic,
               TimePoint since, const std::function<void(const topics::Record&)>& read) {
  topics::ConsumerConfig config{kafka.brokers, group, {topic}, 6000, kafka.properties};
  topics::ReplayRequest request;
  request.topic = topic;
  request.from_time_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(since.time_since_epoch()).count();
  auto spans = topics::planReplay(config, request);
  topics::Producer unused_dead_letters(kafka.brokers, "smsgw-restore-audit", kafka.properties);
  topics::RecordRunner runner(config, unused_dead_letters, [&](const topics::Record& record) {
    read(record);
    topics::Outcome read_only;
    read_only.applied = false;
    return read_only;
  });
  topics::ReplayOptions options;
  options.keep_committed = false;
  topics::runReplay(config, spans, runner, options, topics::stopOnSignals());
}

nlohmann::json ledgerJson(const accounts::TrailRecord& entry) {
  return {{"account_id", entry.account_id},
          {"kind", entry.kind},
          {"reference_id", entry.reference_id},
          {"amount_cents", entry.amount_cents},
          {"at", entry.at}};
}

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
  const std::string group = "smsgw-restore-audit-" + randomBase62(8);
  Tally tally;
  TrailTally trail;
  spdlog::set_level(spdlog::level::warn);  // not a line per event read: the summary says it
  try {
    readSince(kafka, group, std::string(topics::kEvents.name), since,
              [&](const topics::Record& record) {
                ++tally.events_read;
                try {
                  tally.unjudged.push_back(
                      seenOf(topics::EventRecord::parse(record.payload), record.payload));
                } catch (const std::exception&) {
                  ++tally.unreadable;  // not an event this gateway wrote: nothing to set against
                }
                if (tally.unjudged.size() >= kJudgedTogether) tally.judge(db);
              });
    tally.judge(db);
    readSince(kafka, group, std::string(topics::kAccountTrail.name), since,
              [&](const topics::Record& record) {
                ++trail.read;
                try {
                  trail.unjudged.push_back(accounts::parseTrailRecord(record.payload));
                } catch (const std::exception&) {
                  ++trail.unreadable;
                }
                if (trail.unjudged.size() >= kJudgedTogether) trail.judge(db);
              });
    trail.judge(db);
  } catch (const std::exception& e) {
    std::cerr << "smsgw-admin: restore audit failed: " << e.what() << "\n";
    return 1;
  }
  // The audit's group is its own: it goes with the audit rather than staying on the cluster.
  bool group_deleted = true;
  try {
    topics::deleteConsumerGroup(kafka.brokers, kafka.properties, group);
  } catch (const std::exception& e) {
    group_deleted = false;
    std::cerr << "smsgw-admin: the audit's consumer group " << group
              << " stays on the cluster: " << e.what() << "\n";
  }
  // Settling is what the sender would have recorded, had this database seen it.
  nlohmann::json settled = nlohmann::json::array(), unsettled = nlohmann::json::array();
  for (const auto& id : tally.sent_again) {
    bool done = settle && settleMessage(db, tally, id, now);
    (done ? settled : unsettled).push_back(id);
  }
  // A key revoked after the backup would let its holder in again: revoked again when settling.
  nlohmann::json revoked_again = nlohmann::json::array(), active_again = nlohmann::json::array();
  for (const auto& revoked : trail.found.keys_active_again) {
    bool done = settle && accounts::revokeAgainAfterRestore(db, revoked);
    (done ? revoked_again : active_again).push_back(revoked.key_id);
  }
  nlohmann::json missing_accounts = nlohmann::json::array(), missing_keys = nlohmann::json::array(),
                 missing_ledger = nlohmann::json::array();
  for (const auto& account : trail.found.missing_accounts)
    missing_accounts.push_back(account.account_id);
  for (const auto& key : trail.found.missing_keys)
    missing_keys.push_back({{"key_id", key.key_id}, {"account_id", key.account_id}});
  for (const auto& entry : trail.found.missing_ledger_entries)
    missing_ledger.push_back(ledgerJson(entry));
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
                        {"trail_read", trail.read},
                        {"trail_unreadable", trail.unreadable},
                        {"missing_accounts", missing_accounts},
                        {"missing_keys", missing_keys},
                        {"missing_ledger_entries", missing_ledger},
                        {"keys_revoked_again", revoked_again},
                        {"keys_active_again", active_again},
                        {"consumer_group", group},
                        {"consumer_group_deleted", group_deleted}};
  std::cout << out.dump() << "\n";
  return 0;
}

}  // namespace smsgw::admin
