#include "workers/webhook_dispatcher/dispatcher_handler.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "domain/clock.h"
#include "domain/http_client.h"
#include "domain/ids.h"
#include "domain/webhook_signature.h"
#include "domain/webhook_target.h"
#include "topics/records.h"
#include "workers/webhook_dispatcher/owner_email.h"

namespace smsgw::workers {
namespace {

struct Endpoint {
  std::string id;
  std::string url;
  std::string secret;
};

struct Attempt {
  bool success = false;
  std::optional<int> http_status;
  std::string reason;  // HTTP_<status>, HTTP_<status>_REDIRECT_NOT_FOLLOWED, TIMEOUT,
                       // NETWORK_ERROR, SSRF_BLOCKED
  long long duration_ms = 0;
};

Attempt deliver(const Endpoint& endpoint, const topics::EventRecord& event, const std::string& body,
                const DispatcherConfig& config, const Clock& clock) {
  Attempt attempt;
  if (checkWebhookTarget(endpoint.url, config.allow_private_targets) != TargetVerdict::Allowed) {
    attempt.reason = "SSRF_BLOCKED";
    return attempt;
  }
  long long timestamp = unixSeconds(clock.now());
  std::string signature = signWebhook(endpoint.secret, event.id, timestamp, body);
  HttpHeaders headers = {{"Content-Type", "application/json"},
                         {"User-Agent", "smsgw-webhooks/1"},
                         {"X-Service-Event", event.type},
                         {"X-Service-Timestamp", std::to_string(timestamp)},
                         {"X-Service-Signature", signature},
                         {"webhook-id", event.id},
                         {"webhook-timestamp", std::to_string(timestamp)},
                         {"webhook-signature", signature}};
  HttpResponse response = httpRequest("POST", endpoint.url, headers, body, config.timeout);
  attempt.duration_ms = response.duration.count();
  if (response.status == 0) {
    attempt.reason = response.timed_out ? "TIMEOUT" : "NETWORK_ERROR";
  } else if (response.status >= 200 && response.status < 300) {
    attempt.success = true;
    attempt.http_status = static_cast<int>(response.status);
  } else {
    attempt.http_status = static_cast<int>(response.status);
    attempt.reason = "HTTP_" + std::to_string(response.status);
    if (response.status >= 300 && response.status < 400) attempt.reason += "_REDIRECT_NOT_FOLLOWED";
  }
  return attempt;
}

void recordAttempt(soci::session& sql, const Endpoint& endpoint, const topics::EventRecord& event,
                   const Attempt& a) {
  soci::transaction tx(sql);
  int attempt_number = 0;
  sql << "SELECT count(*) + 1 FROM webhook_deliveries WHERE webhook_id = :w AND event_id = "
         ":e::uuid",
      soci::use(endpoint.id), soci::use(event.id), soci::into(attempt_number);
  std::string id = newId("whd");
  int success = a.success ? 1 : 0;
  int status = a.http_status.value_or(0);
  soci::indicator status_ind = a.http_status ? soci::i_ok : soci::i_null;
  soci::indicator reason_ind = a.reason.empty() ? soci::i_null : soci::i_ok;
  int duration = static_cast<int>(a.duration_ms);
  sql << "INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, attempt, success, "
         "http_status, "
         "error_reason, duration_ms) VALUES (:id, :w, :e::uuid, :t, :n, :s::int::boolean, :h, :r, "
         ":d)",
      soci::use(id), soci::use(endpoint.id), soci::use(event.id), soci::use(event.type),
      soci::use(attempt_number), soci::use(success), soci::use(status, status_ind),
      soci::use(a.reason, reason_ind), soci::use(duration);
  if (a.success) {
    sql << "UPDATE webhooks SET last_success_at = now(), failing_since = NULL, failed_events = 0 "
           "WHERE id = :w",
        soci::use(endpoint.id);
  } else {
    sql << "UPDATE webhooks SET last_failure_at = now(), last_failure_reason = :r, "
           "failing_since = COALESCE(failing_since, now()), failed_events = failed_events + 1 "
           "WHERE id = :w",
        soci::use(a.reason), soci::use(endpoint.id);
  }
  tx.commit();
}

}  // namespace

void DispatcherHandler::operator()(const topics::Record& record) {
  auto event = topics::EventRecord::parse(record.payload);
  std::string body = event.envelope().dump();
  std::string type_filter = nlohmann::json::array({event.type}).dump();

  db::Session sql(context_.db);
  emailAccountEvent(*sql, mailer_, event);
  std::vector<Endpoint> endpoints;
  soci::rowset<soci::row> rows =
      (sql->prepare
           << "SELECT w.id, w.url, w.signing_secret FROM webhooks w WHERE w.account_id = :a "
              "AND w.active AND w.deleted_at IS NULL AND w.events @> :types::jsonb "
              "AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = w.id "
              "AND d.event_id = :e::uuid AND d.success)",
       soci::use(event.account_id), soci::use(type_filter), soci::use(event.id));
  for (const auto& row : rows)
    endpoints.push_back(
        {row.get<std::string>(0), row.get<std::string>(1), row.get<std::string>(2)});

  for (const auto& endpoint : endpoints) {
    Attempt attempt = deliver(endpoint, event, body, config_, context_.clock);
    recordAttempt(*sql, endpoint, event, attempt);
    if (!attempt.success)
      spdlog::warn("event {} to {} failed: {}", event.id, endpoint.id, attempt.reason);
  }
}

}  // namespace smsgw::workers
