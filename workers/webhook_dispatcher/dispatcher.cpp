#include "workers/webhook_dispatcher/dispatcher.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <future>
#include <memory>

#include "adapters/log.h"
#include "adapters/metrics.h"
#include "db/error_text.h"
#include "services/webhooks/account_event_emails.h"
#include "services/webhooks/owner_notices.h"
#include "topics/records.h"
#include "workers/runtime/retries.h"

namespace smsgw::workers {
namespace {

// Settling is one short transaction; a database hiccup gets a few tries before the attempt's
// outcome is given up (logged), which for a first attempt loses the event (spec rule 3).
template <typename Work>
void settleOrLog(const char* what, Work&& work) {
  try {
    withRetries(what, 3, work);
  } catch (const std::exception& e) {
    spdlog::error("{} failed for good: {}", what, db::describeError(e));
  }
}

// Counts down the attempts an event started; the last to finish (made or parked) settles it.
class EventSettlement {
 public:
  explicit EventSettlement(size_t attempts) : left_(attempts), settled_(done_.get_future()) {}
  void finishOne() {
    if (left_.fetch_sub(1) == 1) done_.set_value();
  }
  std::shared_future<void> settled() const { return settled_; }

 private:
  std::atomic<size_t> left_;
  std::promise<void> done_;
  std::shared_future<void> settled_;
};

// Calls what it holds when it goes, unless it was handed on: an event hears of each of its
// attempts once, whatever threw on the way.
struct CallOnce {
  std::function<void()> call;
  ~CallOnce() {
    if (call) call();
  }
};

}  // namespace

Dispatcher::Dispatcher(db::Database& db, const Clock& clock, Mailer& mailer,
                       DispatcherConfig config)
    : db_(db),
      clock_(clock),
      mailer_(mailer),
      config_(config),
      successes_(db, clock),
      pool_(config.pool) {}

topics::Outcome Dispatcher::onEvent(const topics::Record& record) {
  auto event = topics::EventRecord::parse(record.payload);
  db::Session sql(db_);
  webhooks::emailAccountEvent(*sql, mailer_, event);
  TimePoint now = clock_.now();
  auto endpoints = webhooks::endpointsOwed(*sql, event, now);
  if (endpoints.empty()) return topics::Outcome::unchanged();
  return queueAttempts(sql, event, std::move(endpoints),
                       webhooks::accountStatus(*sql, event.account_id), now);
}

std::vector<topics::Outcome> Dispatcher::onEvents(const std::vector<topics::Record>& records) {
  std::vector<topics::EventRecord> events;
  events.reserve(records.size());
  for (const auto& record : records) events.push_back(topics::EventRecord::parse(record.payload));
  db::Session sql(db_);
  for (const auto& event : events) webhooks::emailAccountEvent(*sql, mailer_, event);
  TimePoint now = clock_.now();
  auto owed = webhooks::endpointsOwedEach(*sql, events, now);
  std::vector<topics::Outcome> outcomes;
  outcomes.reserve(events.size());
  for (size_t i = 0; i < events.size(); ++i) {
    if (owed[i].endpoints.empty()) {
      outcomes.push_back(topics::Outcome::unchanged());
      continue;
    }
    RequestScope scope(topics::requestIdOf(records[i]));
    outcomes.push_back(
        queueAttempts(sql, events[i], std::move(owed[i].endpoints), owed[i].account_status, now));
  }
  return outcomes;
}

topics::Outcome Dispatcher::queueAttempts(db::Session& sql, const topics::EventRecord& event,
                                          std::vector<WebhookEndpoint> endpoints,
                                          AccountStatus status, TimePoint now) {
  EventToDeliver delivery{event.id, event.type, event.envelope().dump()};
  auto settlement = std::make_shared<EventSettlement>(endpoints.size());
  bool queued = false;
  for (auto& endpoint : endpoints) {
    webhooks::OwedDelivery owed;
    owed.endpoint = std::move(endpoint);
    owed.account_id = event.account_id;
    owed.event = delivery;
    if (isHeld(status)) {
      webhooks::recordDeadLetter(*sql, owed, webhooks::dead_letter_reason::accountNotServed(status),
                                 now);
      settlement->finishOne();
      continue;
    }
    // The attempt runs on the pool for the request the event came from: its log lines and its
    // row in webhook_deliveries name that request.
    DeliveryJob job{[this, owed, settlement, request = RequestScope::current()] {
                      RequestScope scope(request);
                      attempt(owed, [settlement] { settlement->finishOne(); });
                    },
                    [this, owed, settlement, request = RequestScope::current()] {
                      RequestScope scope(request);
                      CallOnce finish{[settlement] { settlement->finishOne(); }};
                      park(owed);
                    }};
    if (pool_.submit(owed.endpoint.id, std::move(job))) {
      queued = true;
      continue;
    }
    spdlog::warn("webhook {} has too many deliveries waiting; event {} is a dead letter",
                 owed.endpoint.id, owed.event.id);
    webhooks::recordDeadLetter(*sql, owed, webhooks::dead_letter_reason::kQueueFull, now);
    settlement->finishOne();
  }
  return queued ? topics::Outcome::settlesLater(settlement->settled()) : topics::Outcome::done();
}

int Dispatcher::runDueRetries() {
  TimePoint now = clock_.now();
  db::Session sql(db_);
  if (now - last_notice_ >= config_.notice_interval) {
    webhooks::noticeFailingEndpoints(*sql, mailer_, now);
    last_notice_ = now;
  }
  auto capacity = pool_.capacity();
  auto due = webhooks::claimDueRetries(*sql, now, now + config_.lease,
                                       static_cast<int>(capacity.spare), capacity.saturated);
  for (auto& owed : due) {
    if (!pool_.submit(owed.endpoint.id,
                      {[this, owed] { attempt(owed, {}); }, [this, owed] { park(owed); }}))
      webhooks::parkUnmade(*sql, owed, now);
  }
  return static_cast<int>(due.size());
}

void Dispatcher::attempt(const webhooks::OwedDelivery& owed, std::function<void()> settled) {
  CallOnce once{std::move(settled)};  // whatever throws below, the event hears of this attempt
  DeliveryOutcome outcome =
      deliverWebhook(owed.endpoint, owed.event, clock_.now(), config_.delivery);
  metrics::webhookAttempt(outcome.success, outcome.duration_ms / 1000.0);
  if (outcome.success)
    spdlog::info("event {} ({}) delivered to webhook {} (attempt {}, {} ms)", owed.event.id,
                 owed.event.type, owed.endpoint.id, owed.attempt, outcome.duration_ms);
  if (!outcome.success)
    spdlog::warn("event {} to webhook {} (attempt {}) failed: {}", owed.event.id, owed.endpoint.id,
                 owed.attempt, outcome.reason);
  if (outcome.success && !owed.from_retries && config_.batch_successes) {
    successes_.add({owed, outcome, RequestScope::current()}, std::move(once.call));
    once.call = nullptr;
    return;
  }
  settleOrLog("settling a webhook attempt", [&] {
    db::Session sql(db_);
    thread_local std::mt19937_64 random(std::random_device{}());
    webhooks::Settlement settlement =
        webhooks::settleAttempt(*sql, owed, outcome, clock_.now(), random);
    if (settlement.disabled) {
      spdlog::warn("webhook {} disabled", owed.endpoint.id);
      webhooks::noticeDisabledEndpoint(*sql, mailer_, owed.endpoint.id);
    }
  });
}

void Dispatcher::park(const webhooks::OwedDelivery& owed) {
  settleOrLog("parking a webhook attempt", [&] {
    db::Session sql(db_);
    webhooks::parkUnmade(*sql, owed, clock_.now());
  });
}

}  // namespace smsgw::workers
