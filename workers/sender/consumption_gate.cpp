#include "workers/sender/consumption_gate.h"

#include <spdlog/spdlog.h>

#include "db/outbox.h"

namespace smsgw::workers {
namespace {

// Writers read their clock a moment before they begin the transaction that stamps the row
// (a pooled connection may keep them waiting), and their clocks may differ from the database's.
constexpr std::chrono::seconds kClockMargin{5};
// Per request to the broker: a pass whose broker is away goes on to its other work.
constexpr std::chrono::milliseconds kBrokerTimeout{2000};

}  // namespace

GroupConsumptionGate::GroupConsumptionGate(std::string brokers, topics::KafkaProperties properties,
                                           std::string group_prefix)
    : brokers_(std::move(brokers)),
      group_prefix_(std::move(group_prefix)),
      properties_(std::move(properties)) {}

GroupConsumptionGate::~GroupConsumptionGate() = default;

std::optional<TimePoint> GroupConsumptionGate::consumedThrough(db::Database& db,
                                                               const topics::TopicSpec& topic) {
  std::string name(topic.name);
  auto found = watches_.find(name);
  if (found == watches_.end()) {
    Watch watch;
    watch.reader = std::make_unique<topics::GroupProgressReader>(
        brokers_, properties_, group_prefix_ + "." + std::string(topic.consumer));
    found = watches_.emplace(name, std::move(watch)).first;
  }
  Watch& watch = found->second;
  // In this order: what the ends count was published before `through`.
  TimePoint through = db::outboxPublishedThrough(db, name, kClockMargin);
  auto progress = watch.reader->read(name, topic.partitions, kBrokerTimeout);
  if (!progress) {
    spdlog::warn("reconciler: the broker did not say how far {} has been read", name);
    return watch.marks.consumedThrough({});  // what was known before
  }
  watch.marks.add({through, progress->ends});
  return watch.marks.consumedThrough(progress->group);
}

}  // namespace smsgw::workers
