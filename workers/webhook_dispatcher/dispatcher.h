#pragma once
// The webhook dispatcher (spec "Events"; webhooks issue). An event from the `events` topic goes
// to every active endpoint of its account subscribed to its type; each attempt runs on the
// delivery pool, so the consume loop never waits on a customer's server and one slow endpoint
// delays only itself. A failed event is stored at once and retried on schedule by whichever
// dispatcher claims it; events of suspended or closed accounts go straight to dead letters.
// Account events are also emailed to the owner (services/webhooks/account_event_emails.h).

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "adapters/mailer.h"
#include "adapters/webhook_delivery.h"
#include "db/database.h"
#include "domain/clock.h"
#include "services/webhooks/delivery_store.h"
#include "topics/consumer_loop.h"
#include "workers/webhook_dispatcher/delivery_pool.h"
#include "workers/webhook_dispatcher/success_batches.h"

namespace smsgw::workers {

struct DispatcherConfig {
  DeliveryOptions delivery;
  DeliveryPoolLimits pool;
  // How long a claimed retry stays this dispatcher's; after it, another may take it (the
  // claimant died). Far longer than an attempt can take.
  std::chrono::seconds lease{300};
  std::chrono::seconds notice_interval{30};  // how often failing endpoints are looked at
  // Successful first attempts settle in batches (success_batches.h); off, each settles alone.
  bool batch_successes = true;
};

class Dispatcher {
 public:
  Dispatcher(db::Database& db, const Clock& clock, Mailer& mailer, DispatcherConfig config);

  // The consume-loop handler: queues the event's first attempts and returns. The outcome
  // settles once every attempt was made or parked in PostgreSQL, so the record's offset is
  // stored only then: a dispatcher killed with attempts still queued replays the event, and
  // endpointsOwed leaves out the endpoints already served.
  topics::Outcome onEvent(const topics::Record& record);
  // The batch handler: the events of one poll, their endpoints owed and accounts' statuses read
  // in one query (webhooks::endpointsOwedEach), then each event's attempts queued as onEvent
  // queues them. Throws before queueing any attempt when the read fails.
  std::vector<topics::Outcome> onEvents(const std::vector<topics::Record>& records);
  // Periodic: claims the retries now due (as many as the pool can start) and queues them;
  // returns how many. Also emails the owners of endpoints an hour into a streak.
  int runDueRetries();
  // Returns once every queued attempt ran (tests, benchmarks).
  void waitIdle() {
    pool_.waitIdle();
    successes_.waitIdle();
  }

 private:
  // `settled` runs once the attempt's outcome is in PostgreSQL (or given up), whatever happens.
  void attempt(const webhooks::OwedDelivery& owed, std::function<void()> settled);
  void park(const webhooks::OwedDelivery& owed);
  // Queues the event's first attempts on the pool (or dead-letters them, for an account not
  // served or an endpoint whose queue is full); the outcome settles once every one is settled.
  topics::Outcome queueAttempts(db::Session& sql, const topics::EventRecord& event,
                                std::vector<WebhookEndpoint> endpoints, AccountStatus status,
                                TimePoint now);

  db::Database& db_;
  const Clock& clock_;
  Mailer& mailer_;
  DispatcherConfig config_;
  TimePoint last_notice_{};
  SuccessBatches successes_;  // outlives the pool, whose last jobs may still add to it
  DeliveryPool pool_;  // declared last: destroyed first, while what its jobs use still exists
};

}  // namespace smsgw::workers
