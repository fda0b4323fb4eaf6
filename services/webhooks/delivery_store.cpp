#include "services/webhooks/delivery_store.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "adapters/log.h"
#include "db/prepared_statement.h"
#include "domain/ids.h"
#include "domain/webhook_retry_policy.h"

namespace smsgw::webhooks {
namespace {

namespace policy = webhook_policy;

std::optional<TimePoint> timeOrNothing(const std::string& iso, soci::indicator indicator) {
  if (indicator != soci::i_ok) return std::nullopt;
  return parseIso(iso);
}

std::optional<EventToDeliver> loadEvent(soci::session& sql, const std::string& event_id) {
  topics::EventRecord event;
  std::string data;
  int livemode = 0;
  sql << "SELECT id::text, type, iso_ts(created_at), account_id, livemode::int, data::text "
         "FROM events WHERE id = :e::uuid",
      soci::use(event_id), soci::into(event.id), soci::into(event.type), soci::into(event.created),
      soci::into(event.account_id), soci::into(livemode), soci::into(data);
  if (!sql.got_data()) return std::nullopt;
  event.livemode = livemode != 0;
  event.data = nlohmann::json::parse(data);
  return EventToDeliver{event.id, event.type, event.envelope().dump()};
}

struct EndpointRow {
  WebhookEndpoint endpoint;
  bool active = false;
  bool deleted = false;
};

std::optional<EndpointRow> loadEndpoint(soci::session& sql, const std::string& webhook_id,
                                        TimePoint now) {
  EndpointRow row;
  row.endpoint.id = webhook_id;
  std::string previous, at = formatIso(now);
  soci::indicator previous_indicator = soci::i_null;
  int active = 0, deleted = 0;
  sql << "SELECT url, signing_secret, webhook_previous_secret(webhooks, :now::timestamptz), "
         "active::int, (deleted_at IS NOT NULL)::int FROM webhooks WHERE id = :w",
      soci::use(at), soci::use(webhook_id), soci::into(row.endpoint.url),
      soci::into(row.endpoint.secret), soci::into(previous, previous_indicator), soci::into(active),
      soci::into(deleted);
  if (!sql.got_data()) return std::nullopt;
  if (previous_indicator == soci::i_ok) row.endpoint.previous_secret = previous;
  row.active = active != 0;
  row.deleted = deleted != 0;
  return row;
}

void dropRetry(soci::session& sql, const OwedDelivery& owed) {
  sql << "DELETE FROM webhook_retries WHERE webhook_id = :w AND event_id = :e::uuid",
      soci::use(owed.endpoint.id), soci::use(owed.event.id);
}

void insertAttempt(soci::session& sql, const OwedDelivery& owed, const DeliveryOutcome& outcome,
                   TimePoint now) {
  std::string id = newId("whd"), at = formatIso(now);
  int success = outcome.success ? 1 : 0;
  int status = outcome.http_status.value_or(0);
  soci::indicator status_indicator = outcome.http_status ? soci::i_ok : soci::i_null;
  soci::indicator reason_indicator = outcome.reason.empty() ? soci::i_null : soci::i_ok;
  int duration = outcome.duration_ms;
  // The request the event came from (the dispatcher runs each attempt in its scope).
  const std::string& request_id = RequestScope::current();
  sql << "INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, attempt, success, "
         "http_status, error_reason, duration_ms, occurred_at, request_id) VALUES (:id, :w, "
         ":e::uuid, :t, :n, :s::int::boolean, :h, :r, :d, :at::timestamptz, NULLIF(:rid, '')) "
         "ON CONFLICT DO NOTHING",
      soci::use(id), soci::use(owed.endpoint.id), soci::use(owed.event.id),
      soci::use(owed.event.type), soci::use(owed.attempt), soci::use(success),
      soci::use(status, status_indicator), soci::use(outcome.reason, reason_indicator),
      soci::use(duration), soci::use(at), soci::use(request_id);
}

// Ends the streak of each endpoint in `webhook_ids` (a JSON array) after a success.
void clearStreaks(soci::session& sql, const std::string& webhook_ids, TimePoint now) {
  std::string at = formatIso(now);
  // last_success_at is shown "to within a minute": a busy endpoint is not rewritten each time.
  sql << "UPDATE webhooks SET failing_since = NULL, failed_events = 0, last_success_at = "
         ":at::timestamptz WHERE id IN (SELECT jsonb_array_elements_text(:ids::jsonb)) AND "
         "(failing_since IS NOT NULL OR last_success_at IS NULL OR last_success_at < "
         ":at2::timestamptz - interval '1 minute')",
      soci::use(at), soci::use(webhook_ids), soci::use(at);
}

void clearStreak(soci::session& sql, const std::string& webhook_id, TimePoint now) {
  clearStreaks(sql, nlohmann::json::array({webhook_id}).dump(), now);
}

void disableEndpoint(soci::session& sql, const std::string& webhook_id, const std::string& reason,
                     TimePoint now) {
  std::string at = formatIso(now);
  sql << "UPDATE webhooks SET active = false, deactivated_reason = :r, deactivated_at = "
         ":at::timestamptz WHERE id = :w",
      soci::use(reason), soci::use(at), soci::use(webhook_id);
}

struct StreakRow {
  bool exists = false;
  bool active = false;
  bool deleted = false;
  policy::Streak streak;
};

StreakRow lockStreak(soci::session& sql, const std::string& webhook_id) {
  StreakRow row;
  std::string since, last;
  soci::indicator since_indicator = soci::i_null, last_indicator = soci::i_null;
  int active = 0, deleted = 0;
  // Locks the endpoint: its streak and the disable decision are decided one attempt at a time.
  sql << "SELECT active::int, (deleted_at IS NOT NULL)::int, iso_ts(failing_since), "
         "iso_ts(last_failure_at), failed_events FROM webhooks WHERE id = :w FOR UPDATE",
      soci::use(webhook_id), soci::into(active), soci::into(deleted),
      soci::into(since, since_indicator), soci::into(last, last_indicator),
      soci::into(row.streak.failed_events);
  row.exists = sql.got_data();
  row.active = active != 0;
  row.deleted = deleted != 0;
  row.streak.failing_since = timeOrNothing(since, since_indicator);
  row.streak.last_failure_at = timeOrNothing(last, last_indicator);
  return row;
}

// Whether this attempt's event already failed within the current streak (a retry counts once).
bool failedInStreak(soci::session& sql, const OwedDelivery& owed, const policy::Streak& streak) {
  if (!streak.failing_since) return false;
  std::string since = formatIso(*streak.failing_since);
  int found = 0;
  sql << "SELECT count(*) FROM webhook_deliveries WHERE webhook_id = :w AND event_id = :e::uuid "
         "AND attempt < :n AND NOT success AND occurred_at >= :since::timestamptz",
      soci::use(owed.endpoint.id), soci::use(owed.event.id), soci::use(owed.attempt),
      soci::use(since), soci::into(found);
  return found > 0;
}

void saveStreak(soci::session& sql, const std::string& webhook_id, const policy::Streak& streak,
                const std::string& reason) {
  std::string since = formatIso(*streak.failing_since), last = formatIso(*streak.last_failure_at);
  sql << "UPDATE webhooks SET failing_since = :since::timestamptz, last_failure_at = "
         ":last::timestamptz, last_failure_reason = :r, failed_events = :n WHERE id = :w",
      soci::use(since), soci::use(last), soci::use(reason), soci::use(streak.failed_events),
      soci::use(webhook_id);
}

void scheduleRetry(soci::session& sql, const OwedDelivery& owed, int step, TimePoint due,
                   const std::string& reason, TimePoint now) {
  std::string due_at = formatIso(due), at = formatIso(now);
  sql << "INSERT INTO webhook_retries (webhook_id, event_id, account_id, attempts, next_step, "
         "last_reason, next_attempt_at, created_at) VALUES (:w, :e::uuid, :a, :n, :step, :r, "
         ":due::timestamptz, :at::timestamptz) ON CONFLICT (webhook_id, event_id) DO UPDATE SET "
         "attempts = EXCLUDED.attempts, next_step = EXCLUDED.next_step, last_reason = "
         "EXCLUDED.last_reason, next_attempt_at = EXCLUDED.next_attempt_at",
      soci::use(owed.endpoint.id), soci::use(owed.event.id), soci::use(owed.account_id),
      soci::use(owed.attempt), soci::use(step), soci::use(reason), soci::use(due_at), soci::use(at);
}

// The attempt's row in webhook_retries is what makes it this dispatcher's to settle.
bool stillOurs(soci::session& sql, const OwedDelivery& owed) {
  int attempts = 0;
  soci::indicator indicator = soci::i_null;
  sql << "SELECT attempts FROM webhook_retries WHERE webhook_id = :w AND event_id = :e::uuid "
         "FOR UPDATE",
      soci::use(owed.endpoint.id), soci::use(owed.event.id), soci::into(attempts, indicator);
  bool has_row = sql.got_data();
  if (owed.from_retries) return has_row && attempts == owed.attempt - 1;
  return !has_row;  // a first attempt: nobody failed it yet
}

Settlement settleFailure(soci::session& sql, const OwedDelivery& owed,
                         const DeliveryOutcome& outcome, const StreakRow& row, TimePoint now,
                         std::mt19937_64& random) {
  FailedAttempt failed{outcome.reason, owed.attempt, owed.step, outcome.blocked(),
                       row.active,     row.streak,   false};
  if (!failed.ssrf_blocked) failed.event_counted = failedInStreak(sql, owed, row.streak);
  FailurePlan plan = planFailure(failed, now, random);
  if (plan.streak) saveStreak(sql, owed.endpoint.id, *plan.streak, outcome.reason);
  if (plan.retry_at) {
    scheduleRetry(sql, owed, *plan.retry_step, *plan.retry_at, outcome.reason, now);
  } else {
    dropRetry(sql, owed);
    recordDeadLetter(sql, owed, plan.dead_letter_reason, now);
  }
  Settlement settlement;
  settlement.dead_letter_reason = plan.dead_letter_reason;
  if (plan.disable) {
    disableEndpoint(sql, owed.endpoint.id, plan.disable_reason, now);
    deadLetterOwedEvents(sql, owed.endpoint.id, "", now);
    settlement.disabled = true;
  }
  return settlement;
}

}  // namespace

AccountStatus accountStatus(soci::session& sql, const std::string& account_id) {
  std::string status;
  sql << "SELECT status FROM accounts WHERE id = :a", soci::use(account_id), soci::into(status);
  return accountStatusFromString(status);
}

std::optional<WebhookEndpoint> signingEndpoint(soci::session& sql, const std::string& webhook_id,
                                               TimePoint now) {
  auto row = loadEndpoint(sql, webhook_id, now);
  if (!row) return std::nullopt;
  return row->endpoint;
}

namespace {

std::vector<WebhookEndpoint> endpointsOf(const nlohmann::json& rows) {
  std::vector<WebhookEndpoint> endpoints;
  for (const auto& row : rows) {
    WebhookEndpoint endpoint{row.at("id"), row.at("url"), row.at("signing_secret"), std::nullopt};
    if (!row.at("previous_secret").is_null()) endpoint.previous_secret = row.at("previous_secret");
    endpoints.push_back(std::move(endpoint));
  }
  return endpoints;
}

// Asked for every event (or every poll of events), so prepared once per connection and in one
// round trip: the rows come back as one JSON array.
const db::PreparedStatement& endpointsOwedStatement() {
  static const db::PreparedStatement statement(
      "endpoints_owed",
      "SELECT coalesce(json_agg(o), '[]')::text FROM webhook_endpoints_owed($1::text, "
      "$2::jsonb, $3::uuid, $4::boolean, $5::timestamptz) o");
  return statement;
}

const db::PreparedStatement& endpointsOwedEachStatement() {
  static const db::PreparedStatement statement(
      "endpoints_owed_each",
      "SELECT coalesce(json_agg(json_build_object('endpoints', x.endpoints, 'status', "
      "CASE WHEN x.endpoints::text <> '[]' THEN (SELECT status FROM accounts WHERE id = "
      "x.account) END) ORDER BY x.ord), '[]')::text FROM (SELECT e.ord, e.account, "
      "(SELECT coalesce(json_agg(o), '[]') FROM webhook_endpoints_owed(e.account, e.types, "
      "e.event, e.live, $1::timestamptz) o) AS endpoints FROM jsonb_to_recordset($2::jsonb) "
      "AS e(ord int, account text, types jsonb, event uuid, live boolean)) x");
  return statement;
}

// The one cell of a statement that answers one text.
std::string onlyCell(const std::vector<db::Row>& rows) {
  if (rows.size() != 1 || rows[0].size() != 1 || !rows[0][0])
    throw std::logic_error("one text was expected");
  return *rows[0][0];
}

}  // namespace

std::vector<WebhookEndpoint> endpointsOwed(soci::session& sql, const topics::EventRecord& event,
                                           TimePoint now) {
  std::string owed = onlyCell(endpointsOwedStatement().run(
      sql, {event.account_id, nlohmann::json::array({event.type}).dump(), event.id,
            std::string(event.livemode ? "true" : "false"), formatIso(now)}));
  return endpointsOf(nlohmann::json::parse(owed));
}

std::vector<EventOwed> endpointsOwedEach(soci::session& sql,
                                         const std::vector<topics::EventRecord>& events,
                                         TimePoint now) {
  nlohmann::json asked = nlohmann::json::array();
  for (size_t i = 0; i < events.size(); ++i) {
    asked.push_back({{"ord", i},
                     {"account", events[i].account_id},
                     {"types", nlohmann::json::array({events[i].type})},
                     {"event", events[i].id},
                     {"live", events[i].livemode}});
  }
  std::string owed =
      onlyCell(endpointsOwedEachStatement().run(sql, {formatIso(now), asked.dump()}));
  std::vector<EventOwed> result;
  result.reserve(events.size());
  for (const auto& row : nlohmann::json::parse(owed)) {
    EventOwed each{endpointsOf(row.at("endpoints"))};
    if (row.at("status").is_string())
      each.account_status = accountStatusFromString(row.at("status").get<std::string>());
    result.push_back(std::move(each));
  }
  if (result.size() != events.size())
    throw std::logic_error("endpoints owed: an answer per event was expected");
  return result;
}

void recordDeadLetter(soci::session& sql, const OwedDelivery& owed, const std::string& reason,
                      TimePoint now) {
  std::string id = newId("whdl"), at = formatIso(now);
  sql << "INSERT INTO webhook_dead_letters (id, webhook_id, account_id, event_id, event_type, "
         "failed_reason, payload, created_at) VALUES (:id, :w, :a, :e::uuid, :t, :r, "
         ":p::jsonb, :at::timestamptz) ON CONFLICT (webhook_id, event_id) DO NOTHING",
      soci::use(id), soci::use(owed.endpoint.id), soci::use(owed.account_id),
      soci::use(owed.event.id), soci::use(owed.event.type), soci::use(reason),
      soci::use(owed.event.body), soci::use(at);
}

void recordReplayAttempt(soci::session& sql, const OwedDelivery& owed,
                         const DeliveryOutcome& outcome, TimePoint now) {
  OwedDelivery numbered = owed;
  sql << "SELECT COALESCE(max(attempt), 0) + 1 FROM webhook_deliveries WHERE webhook_id = :w AND "
         "event_id = :e::uuid",
      soci::use(owed.endpoint.id), soci::use(owed.event.id), soci::into(numbered.attempt);
  insertAttempt(sql, numbered, outcome, now);
  if (outcome.success) clearStreak(sql, owed.endpoint.id, now);
}

Settlement settleAttempt(soci::session& sql, const OwedDelivery& owed,
                         const DeliveryOutcome& outcome, TimePoint now, std::mt19937_64& random) {
  soci::transaction tx(sql);
  if (outcome.success && !owed.from_retries) {
    // The common case decides nothing about the streak, so it takes no lock on the endpoint
    // (its concurrent deliveries would queue on it); the update below locks only if it writes.
    insertAttempt(sql, owed, outcome, now);
    clearStreak(sql, owed.endpoint.id, now);
    tx.commit();
    return {};
  }
  StreakRow row = lockStreak(sql, owed.endpoint.id);
  Settlement stale;
  stale.stale = true;
  if (!row.exists || !stillOurs(sql, owed)) return stale;
  if (row.deleted) {
    dropRetry(sql, owed);
    tx.commit();
    return stale;
  }
  insertAttempt(sql, owed, outcome, now);
  Settlement settlement;
  if (outcome.success) {
    clearStreak(sql, owed.endpoint.id, now);
    dropRetry(sql, owed);
  } else {
    settlement = settleFailure(sql, owed, outcome, row, now, random);
  }
  tx.commit();
  return settlement;
}

void settleFirstSuccesses(soci::session& sql, const std::vector<FirstSuccess>& done,
                          TimePoint now) {
  if (done.empty()) return;
  std::string at = formatIso(now);
  nlohmann::json rows = nlohmann::json::array();
  std::set<std::string> endpoints;
  for (const auto& [owed, outcome, request_id] : done) {
    rows.push_back(
        {{"id", newId("whd")},
         {"webhook_id", owed.endpoint.id},
         {"event_id", owed.event.id},
         {"event_type", owed.event.type},
         {"attempt", owed.attempt},
         {"http_status",
          outcome.http_status ? nlohmann::json(*outcome.http_status) : nlohmann::json()},
         {"duration_ms", outcome.duration_ms},
         {"request_id", request_id.empty() ? nlohmann::json() : nlohmann::json(request_id)}});
    endpoints.insert(owed.endpoint.id);
  }
  std::string rows_json = rows.dump(), endpoint_ids = nlohmann::json(endpoints).dump();
  soci::transaction tx(sql);
  sql << "INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, attempt, success, "
         "http_status, duration_ms, occurred_at, request_id) SELECT r.id, r.webhook_id, "
         "r.event_id, r.event_type, r.attempt, true, r.http_status, r.duration_ms, "
         ":at::timestamptz, r.request_id FROM jsonb_to_recordset(:rows::jsonb) AS r(id text, "
         "webhook_id text, event_id uuid, event_type text, attempt int, http_status int, "
         "duration_ms int, request_id text) ON CONFLICT DO NOTHING",
      soci::use(at), soci::use(rows_json);
  clearStreaks(sql, endpoint_ids, now);
  tx.commit();
}

std::vector<OwedDelivery> claimDueRetries(soci::session& sql, TimePoint now, TimePoint lease_until,
                                          int limit, const std::vector<std::string>& skipped) {
  if (limit <= 0) return {};
  std::string at = formatIso(now), until = formatIso(lease_until);
  nlohmann::json skipped_ids = skipped;
  std::string skipped_json = skipped_ids.dump();
  // Prepared: the dispatcher sweeps several times a second, and this was planned each time.
  static const db::PreparedStatement claim(
      "claim_due_retries",
      "WITH due AS (SELECT webhook_id, event_id FROM webhook_retries WHERE "
      "next_attempt_at <= $1::timestamptz AND webhook_id <> ALL (ARRAY(SELECT "
      "jsonb_array_elements_text($2::jsonb))) ORDER BY next_attempt_at LIMIT "
      "$3::int FOR UPDATE SKIP LOCKED) UPDATE webhook_retries r SET next_attempt_at = "
      "$4::timestamptz FROM due WHERE r.webhook_id = due.webhook_id AND "
      "r.event_id = due.event_id RETURNING r.webhook_id, r.event_id::text, "
      "r.account_id, r.attempts, r.next_step");
  std::vector<OwedDelivery> owed;
  soci::transaction tx(sql);
  for (const db::Row& row : claim.run(sql, {at, skipped_json, std::to_string(limit), until})) {
    OwedDelivery item;
    item.endpoint.id = db::textOr(row[0]);
    item.event.id = db::textOr(row[1]);
    item.account_id = db::textOr(row[2]);
    item.attempt = static_cast<int>(db::integerOf(row[3])) + 1;
    int step = static_cast<int>(db::integerOf(row[4]));
    if (step >= 0) item.step = step;
    item.from_retries = true;
    owed.push_back(std::move(item));
  }
  std::vector<OwedDelivery> runnable;
  for (auto& item : owed) {
    auto endpoint = loadEndpoint(sql, item.endpoint.id, now);
    auto event = loadEvent(sql, item.event.id);
    if (!endpoint || endpoint->deleted || !event) {
      dropRetry(sql, item);
      continue;
    }
    item.endpoint = endpoint->endpoint;
    item.event = *event;
    AccountStatus status = accountStatus(sql, item.account_id);
    if (isHeld(status)) {
      dropRetry(sql, item);
      recordDeadLetter(sql, item, dead_letter_reason::accountNotServed(status), now);
    } else if (!endpoint->active) {
      dropRetry(sql, item);
      recordDeadLetter(sql, item, dead_letter_reason::kEndpointDisabled, now);
    } else {
      runnable.push_back(std::move(item));
    }
  }
  tx.commit();
  return runnable;
}

void parkUnmade(soci::session& sql, const OwedDelivery& owed, TimePoint now) {
  std::string at = formatIso(now);
  if (owed.from_retries) {
    int made = owed.attempt - 1;
    sql << "UPDATE webhook_retries SET next_attempt_at = :at::timestamptz WHERE webhook_id = :w "
           "AND event_id = :e::uuid AND attempts = :n",
        soci::use(at), soci::use(owed.endpoint.id), soci::use(owed.event.id), soci::use(made);
    return;
  }
  sql << "INSERT INTO webhook_retries (webhook_id, event_id, account_id, attempts, next_step, "
         "next_attempt_at, created_at) VALUES (:w, :e::uuid, :a, 0, -1, :at::timestamptz, "
         ":at2::timestamptz) ON CONFLICT DO NOTHING",
      soci::use(owed.endpoint.id), soci::use(owed.event.id), soci::use(owed.account_id),
      soci::use(at), soci::use(at);
}

void deadLetterOwedEvents(soci::session& sql, const std::string& webhook_id,
                          const std::string& reason, TimePoint now) {
  soci::rowset<soci::row> rows =
      (sql.prepare << "DELETE FROM webhook_retries WHERE webhook_id = :w RETURNING "
                      "event_id::text, account_id, attempts, COALESCE(last_reason, '')",
       soci::use(webhook_id));
  struct Owed {
    std::string event_id, account_id, last_reason;
    int attempts;
  };
  std::vector<Owed> removed;
  for (const auto& row : rows)
    removed.push_back({row.get<std::string>(0), row.get<std::string>(1), row.get<std::string>(3),
                       row.get<int>(2)});
  for (const auto& item : removed) {
    auto event = loadEvent(sql, item.event_id);
    if (!event) continue;
    OwedDelivery owed;
    owed.endpoint.id = webhook_id;
    owed.account_id = item.account_id;
    owed.event = *event;
    std::string why = !reason.empty() ? reason
                      : item.attempts == 0
                          ? std::string(dead_letter_reason::kEndpointDisabled)
                          : afterAttempts(item.last_reason, item.attempts) + "; endpoint disabled";
    recordDeadLetter(sql, owed, why, now);
  }
}

}  // namespace smsgw::webhooks
