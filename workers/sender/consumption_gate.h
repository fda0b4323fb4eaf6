#pragma once
// Whether a record the reconciler would write again was lost or is only waiting behind consumer
// lag. A sender that restarts after two minutes away finds every message queued meanwhile older
// than the reconciler's wait while its consumers have yet to read them: written again, each would
// be handled twice (harmlessly: the hand-off is claimed) and counted as a loss the broker never
// had (ops/bench/RESULTS.md, the hour's soak). So a record counts as lost only once the group
// that consumes its topic has read past where it was: the reconciler fixes only what was
// written before `consumedThrough`.

#include <map>
#include <memory>
#include <optional>

#include "db/database.h"
#include "domain/clock.h"
#include "topics/catalogue.h"
#include "topics/group_progress.h"

namespace smsgw::workers {

class ConsumptionGate {
 public:
  virtual ~ConsumptionGate() = default;
  // Before this time, every record of `topic` written through the outbox has been read by the
  // topic's consumer group; nullopt while that is not known (fix nothing of the topic yet).
  virtual std::optional<TimePoint> consumedThrough(db::Database& db,
                                                   const topics::TopicSpec& topic) = 0;
};

// For a reconciler driven by hand, with records handed to handlers directly (tests): whatever was
// published counts as read.
class EverythingRead : public ConsumptionGate {
 public:
  std::optional<TimePoint> consumedThrough(db::Database&, const topics::TopicSpec&) override {
    return TimePoint::max();
  }
};

// Asks the cluster at each call: the database's published-through time, then the topic's end
// offsets, make a mark (topics/group_progress.h); the group's committed offsets say which marks
// it has read past. Groups are named `group_prefix.<consumer>`, as the workers name theirs.
class GroupConsumptionGate : public ConsumptionGate {
 public:
  GroupConsumptionGate(std::string brokers, topics::KafkaProperties properties,
                       std::string group_prefix);
  ~GroupConsumptionGate() override;
  std::optional<TimePoint> consumedThrough(db::Database& db,
                                           const topics::TopicSpec& topic) override;

 private:
  struct Watch {
    std::unique_ptr<topics::GroupProgressReader> reader;
    topics::ConsumptionMarks marks;
  };
  std::string brokers_, group_prefix_;
  topics::KafkaProperties properties_;
  std::map<std::string, Watch, std::less<>> watches_;
};

}  // namespace smsgw::workers
