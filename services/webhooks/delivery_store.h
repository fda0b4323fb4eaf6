#pragma once
// What the dispatcher keeps in PostgreSQL (spec "Delivery rules"; pipeline rule 5): attempts,
// the events owed after a failure (webhook_retries, shared by every dispatcher through
// SKIP LOCKED), dead letters, and each endpoint's failure streak. Times come from the caller's
// clock, never from now(), so tests move them.

#include <soci/session.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "adapters/webhook_delivery.h"
#include "domain/account_status.h"
#include "domain/clock.h"
#include "services/webhooks/failure_plan.h"
#include "topics/records.h"

namespace smsgw::webhooks {

// An event owed to an endpoint: a first attempt, or a retry taken from webhook_retries.
struct OwedDelivery {
  WebhookEndpoint endpoint;
  std::string account_id;
  EventToDeliver event;
  int attempt = 1;            // the number of the attempt about to be made
  std::optional<int> step;    // the retry schedule's step of this attempt; nothing for a first
  bool from_retries = false;  // claimed from webhook_retries (else a first attempt off Kafka)
};

// The account's status; delivery happens only for accounts not held (isHeld: neither SUSPENDED
// nor CLOSED).
AccountStatus accountStatus(soci::session& sql, const std::string& account_id);

// Active endpoints subscribed to the event that are still owed it: no success, no pending
// retry and no dead letter for it yet (a replayed Kafka record delivers nothing twice).
std::vector<WebhookEndpoint> endpointsOwed(soci::session& sql, const topics::EventRecord& event,
                                           TimePoint now);

// What the dispatcher reads for one event: the endpoints owed it and, when there are some, its
// account's status.
struct EventOwed {
  std::vector<WebhookEndpoint> endpoints;
  AccountStatus account_status = AccountStatus::Active;  // read when there are endpoints
};
// endpointsOwed and accountStatus for several events (a poll's) in one round trip, in their
// order.
std::vector<EventOwed> endpointsOwedEach(soci::session& sql,
                                         const std::vector<topics::EventRecord>& events,
                                         TimePoint now);

// The endpoint's URL and the secrets that sign for it at `now` (the previous one while a
// rotation is under a day old); nothing when there is no such endpoint.
std::optional<WebhookEndpoint> signingEndpoint(soci::session& sql, const std::string& webhook_id,
                                               TimePoint now);

// Idempotent: a second dead letter for the same endpoint and event is dropped.
void recordDeadLetter(soci::session& sql, const OwedDelivery& owed, const std::string& reason,
                      TimePoint now);

struct Settlement {
  bool stale = false;     // another dispatcher settled this attempt already; nothing recorded
  bool disabled = false;  // this failure disabled the endpoint (the owner is told)
  std::string dead_letter_reason;  // set when the event became a dead letter
};

// Records an attempt and what follows from it, in one transaction: a success clears the
// streak; a failure schedules the next retry or makes a dead letter, extends the streak, and
// disables the endpoint when the rule says so (its owed events become dead letters).
Settlement settleAttempt(soci::session& sql, const OwedDelivery& owed,
                         const DeliveryOutcome& outcome, TimePoint now, std::mt19937_64& random);

// A first attempt that succeeded, with the request its event came from (for its row).
struct FirstSuccess {
  OwedDelivery owed;
  DeliveryOutcome outcome;
  std::string request_id;
};
// What settleAttempt records for each of `done`, in one transaction of three statements however
// many they are: their rows in one insert and each endpoint's streak cleared once. A success
// of a first attempt decides nothing else, so nothing is lost by taking them together.
void settleFirstSuccesses(soci::session& sql, const std::vector<FirstSuccess>& done, TimePoint now);

// A replay asked through the API: the attempt is recorded after the others of its event, and a
// success clears the endpoint's streak as any success does.
void recordReplayAttempt(soci::session& sql, const OwedDelivery& owed,
                         const DeliveryOutcome& outcome, TimePoint now);

// Claims at most `limit` due retries for this dispatcher until `lease_until`, none for the
// `skipped` endpoints (this dispatcher cannot start more for them now). Retries whose endpoint
// is gone are dropped; those of suspended or closed accounts become dead letters.
std::vector<OwedDelivery> claimDueRetries(soci::session& sql, TimePoint now, TimePoint lease_until,
                                          int limit, const std::vector<std::string>& skipped = {});
// A first attempt not made before shutdown is owed at once (attempts 0); a claimed retry not
// made is handed back.
void parkUnmade(soci::session& sql, const OwedDelivery& owed, TimePoint now);

// Every event owed to the endpoint becomes a dead letter with `reason` (nothing when empty: the
// last failure and its attempt count, with "; endpoint disabled").
void deadLetterOwedEvents(soci::session& sql, const std::string& webhook_id,
                          const std::string& reason, TimePoint now);

}  // namespace smsgw::webhooks
