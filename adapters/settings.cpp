#include "adapters/settings.h"

#include <unistd.h>

#include <cctype>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string_view>

#include "adapters/env.h"

namespace smsgw {

void addDatabaseSettings(ProcessSettings& settings, std::string& database_url) {
  database_url = "host=127.0.0.1 port=15432 dbname=smsgw user=smsgw";
  settings.add("DATABASE_URL", database_url, "libpq connection string");
}

void addDatabaseSettings(ProcessSettings& settings, std::string& database_url,
                         bool& prepared_statements) {
  addDatabaseSettings(settings, database_url);
  prepared_statements = true;
  settings.add("DB_PREPARED_STATEMENTS", prepared_statements,
               "prepare the hot statements once per connection (off behind a pooler in "
               "transaction mode)");
}

void addMailerSettings(ProcessSettings& settings, std::string& drop_dir) {
  settings.add("MAIL_DROP_DIR", drop_dir,
               "where the embedded mailer writes each email to an owner as a file, the local "
               "stack's inbox (ops/up and ops/test: .data/<stack>/mail)",
               "none: the email is logged");
}

std::map<std::string, std::string> kafkaPassthrough(const char* const* environment) {
  static const std::set<std::string> kOwnVariables = {
      "KAFKA_BROKERS", "KAFKA_BOOTSTRAP_FILE", "KAFKA_GROUP_PREFIX", "KAFKA_SESSION_TIMEOUT_MS",
      "KAFKA_FETCH_WAIT_MAX_MS"};
  const std::string prefix = "KAFKA_";
  std::map<std::string, std::string> properties;
  for (const char* const* entry = environment; entry && *entry; ++entry) {
    std::string_view text(*entry);
    auto equals = text.find('=');
    if (equals == std::string_view::npos || text.substr(0, prefix.size()) != prefix) continue;
    std::string variable(text.substr(0, equals));
    if (kOwnVariables.count(variable) || variable.size() == prefix.size()) continue;
    std::string name;
    for (size_t i = prefix.size(); i < variable.size();) {
      size_t run = 0;
      while (i + run < variable.size() && variable[i + run] == '_') ++run;
      if (run == 0) {
        name += static_cast<char>(std::tolower(static_cast<unsigned char>(variable[i++])));
        continue;
      }
      name += run == 1 ? "." : run == 2 ? "_" : "-";
      i += run;
    }
    properties[name] = std::string(text.substr(equals + 1));
  }
  return properties;
}

void addKafkaSettings(ProcessSettings& settings, KafkaSettings& kafka, bool required) {
  settings.add("KAFKA_BROKERS", kafka.brokers, "Kafka bootstrap list; wins over the file below",
               "none");
  settings.add("KAFKA_BOOTSTRAP_FILE", kafka.bootstrap_file,
               "file whose first line is the bootstrap list (written by smsgw-broker)", "none");
  settings.afterReading([&kafka, required] {
    kafka.properties = kafkaPassthrough(environ);
    if (!kafka.brokers.empty()) return;
    if (kafka.bootstrap_file.empty()) {
      if (!required) return;
      throw std::invalid_argument("set KAFKA_BROKERS or KAFKA_BOOTSTRAP_FILE");
    }
    std::ifstream in(kafka.bootstrap_file);
    std::getline(in, kafka.brokers);
    if (kafka.brokers.empty())
      throw std::invalid_argument("no bootstrap address in " + kafka.bootstrap_file);
  });
}

void addCarrierSettings(ProcessSettings& settings, CarrierClientConfig& carrier) {
  carrier.base_url = kSimulatorBaseUrl;
  settings.add("CARRIER_BASE_URL", carrier.base_url,
               "the carrier's HTTP API (its default, the local simulator, only on a local stack)");
  settings.afterReading([&carrier] {
    // Paths are appended to it ("/v2/messages"): "https://api.telnyx.com/" must not make "//v2".
    while (!carrier.base_url.empty() && carrier.base_url.back() == '/') carrier.base_url.pop_back();
    if (carrier.base_url == kSimulatorBaseUrl && !env::isLocalStack()) {
      throw std::invalid_argument(
          "CARRIER_BASE_URL is still the local carrier simulator's address; set the carrier's "
          "(or SMSGW_ENVIRONMENT=local for a local stack)");
    }
  });
  settings.addSecret("CARRIER_API_KEY", carrier.api_key, kSimulatorApiKey,
                     "carrier credential (Telnyx: an API v2 key)");
  settings.addSecret("TELNYX_MESSAGING_PROFILE_ID", carrier.messaging_profile_id,
                     kSimulatorMessagingProfileId,
                     "the messaging profile every number we order joins (its inbound webhook URL "
                     "is our /carrier/webhooks); a number outside a profile can neither send nor "
                     "receive");
  settings.add("CARRIER_TIMEOUT_MS", carrier.timeout, "carrier call timeout");
  settings.add("CARRIER_WEBHOOK_URL", carrier.webhook_url,
               "our /carrier/webhooks as the carrier reaches it, given with every send as its "
               "webhook_url (receipts come there whatever the messaging profile says); empty: "
               "the messaging profile's webhook URL");
  settings.afterReading([&carrier] {
    const std::string& url = carrier.webhook_url;
    if (!url.empty() && !url.starts_with("https://") &&
        !(url.starts_with("http://") && env::isLocalStack())) {
      throw std::invalid_argument("CARRIER_WEBHOOK_URL must be an https:// URL");
    }
  });
}

void addVerificationCodeSecret(ProcessSettings& settings, std::string& secret) {
  settings.addSecret("VERIFICATION_CODE_SECRET", secret, "local-verification-code-secret",
                     "HMAC key of stored verification codes and key of their sealed texts");
}

void addSendPolicySettings(ProcessSettings& settings, SendPolicy& p) {
  settings.add("RECIPIENT_HOURLY_LIMIT", p.recipient_hourly_limit,
               "messages per recipient an hour");
  settings.add("RECIPIENT_DAILY_LIMIT", p.recipient_daily_limit, "messages per recipient a day");
  settings.add("DAILY_SEND_LIMIT", p.daily_send_limit,
               "messages per account per rolling 24 h (staff may set an account's own)");
  settings.add("FANOUT_LIMIT", p.fanout_limit, "distinct recipients of one body in 24 h");
  settings.add("BROADCAST_MAX_MEMBERS", p.broadcast_max_members,
               "members a group may have to be broadcast to (staff may set an account's own)");
  settings.add("BROADCASTS_PER_DAY", p.broadcasts_per_day,
               "group broadcasts per account and mode per rolling 24 h (staff may set an "
               "account's own)");
  settings.add("BROADCAST_BATCH_SIZE", p.broadcast_batch_size,
               "members a broadcast charges and queues per transaction");
  settings.add("VERIFICATIONS_PER_NUMBER_HOURLY", p.verifications_per_number_hourly,
               "verification codes to one number per account and mode per rolling hour");
  settings.add("VERIFICATIONS_PER_ACCOUNT_HOURLY", p.verifications_per_account_hourly,
               "verification codes per account and mode per rolling hour");
  settings.add("LOCAL_PARTS_PER_MINUTE", p.local_parts_per_minute,
               "pacing of a local sending number");
  settings.add("TOLL_FREE_PARTS_PER_MINUTE", p.toll_free_parts_per_minute,
               "pacing of a toll-free sending number");
  settings.add("STALE_HANDOFF_SECONDS", p.stale_handoff_seconds,
               "a hand-off this old with no outcome fails STALE_QUEUED");
  settings.add("THROTTLED_REQUEUE_SECONDS", p.throttled_requeue_seconds,
               "a send the carrier throttled, or that could not reach it, is queued again until "
               "this long after its acceptance, then fails CARRIER_THROTTLED or "
               "CARRIER_UNAVAILABLE");
  settings.add("IN_DOUBT_DEADLINE_SECONDS", p.in_doubt_deadline_seconds,
               "a send whose carrier answer was lost waits this long for its receipt, then fails "
               "CARRIER_TIMEOUT");
  settings.add("NUMBER_LOOKUP_CACHE_DAYS", p.lookup_cache_days,
               "how long a line-type lookup is trusted");
  settings.add("MESSAGE_RETENTION_DAYS", p.message_retention_days,
               "days before message bodies are purged");
  settings.add("OUTBOX_RETENTION_HOURS", p.outbox_retention_hours,
               "hours before published outbox rows are deleted");
  settings.add("FAILURE_PAUSE_PCT", p.failure_pause_pct,
               "failed share of the last 50 settled messages that pauses LIVE sending");
  settings.add("OPT_OUT_PAUSE_PCT", p.opt_out_pause_pct,
               "opt-out share of a day's recipients that pauses LIVE sending");
  settings.add("SENDING_PAUSE_HOURS", p.pause_hours, "how long an automatic pause lasts");
}

}  // namespace smsgw
