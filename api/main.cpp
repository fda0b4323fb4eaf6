// smsgw-api: loads config, wires the database, producer, outbox relay, carrier client and
// payment provider, serves until SIGTERM.
#include <spdlog/spdlog.h>

#include <thread>

#include "adapters/env.h"
#include "adapters/http_carrier_client.h"
#include "adapters/log.h"
#include "adapters/settings.h"
#include "api/app.h"
#include "api/http/server.h"
#include "api/routes/routes.h"
#include "db/error_text.h"
#include "topics/consumer_loop.h"

using namespace smsgw;

namespace {

api::ApiConfig loadConfig() {
  api::ApiConfig config;
  config.host = env::get("API_HOST", config.host);
  config.port = env::getInt("API_PORT", config.port);
  config.threads = env::getInt("API_THREADS", config.threads);
  config.requests_per_second = env::getInt("API_RATE_LIMIT_PER_SECOND", config.requests_per_second);
  config.public_requests_per_minute =
      env::getInt("API_PUBLIC_RATE_LIMIT_PER_MINUTE", config.public_requests_per_minute);
  config.header_timeout = std::chrono::milliseconds(
      env::getInt("API_HEADER_TIMEOUT_MS", static_cast<int>(config.header_timeout.count())));
  config.body_timeout = std::chrono::milliseconds(
      env::getInt("API_BODY_TIMEOUT_MS", static_cast<int>(config.body_timeout.count())));
  config.keep_alive_timeout = std::chrono::milliseconds(env::getInt(
      "API_KEEP_ALIVE_TIMEOUT_MS", static_cast<int>(config.keep_alive_timeout.count())));
  config.slow_lane_threads = env::getInt("API_SLOW_LANE_THREADS", config.slow_lane_threads);
  config.slow_requests_per_tenant =
      env::getInt("API_SLOW_REQUESTS_PER_ACCOUNT", config.slow_requests_per_tenant);
  config.slow_requests_waiting_per_tenant =
      env::getInt("API_SLOW_WAITING_PER_ACCOUNT", config.slow_requests_waiting_per_tenant);
  // Every reactor and slow-lane thread may hold a connection at once: none waits for a
  // connection that another holds while it waits on the carrier.
  config.db_pool_size = env::getInt("API_DB_POOL_SIZE", config.threads + config.slow_lane_threads);
  config.key_cache_ttl = std::chrono::seconds(env::getInt("API_KEY_CACHE_SECONDS", 60));
  config.max_body_bytes = static_cast<size_t>(
      env::getInt("API_MAX_BODY_BYTES", static_cast<int>(config.max_body_bytes)));
  config.allow_private_webhook_targets = env::getBool("ALLOW_PRIVATE_WEBHOOK_TARGETS", false);
  config.webhook_timeout = std::chrono::milliseconds(env::getInt("WEBHOOK_TIMEOUT_MS", 10000));
  config.platform_sender = env::get("PLATFORM_SENDER_NUMBER", config.platform_sender);
  config.carrier_callback_secret = env::secret("CARRIER_CALLBACK_SECRET", kSimulatorCallbackSecret);
  config.verification_code_secret =
      env::secret("VERIFICATION_CODE_SECRET", "local-verification-code-secret");
  config.owner_code_resend_seconds =
      env::getInt("OWNER_CODE_RESEND_SECONDS", config.owner_code_resend_seconds);
  config.send_policy = sendPolicyFromEnvironment();
  return config;
}

}  // namespace

int main() {
  initLogging("api");
  try {
    const api::ApiConfig config = loadConfig();
    const auto& stop = topics::stopOnSignals();
    db::Database db(env::databaseUrl(), static_cast<size_t>(config.db_pool_size));
    topics::Producer producer(env::kafkaBrokers(), "smsgw-api");
    topics::OutboxRelay relay(db, producer);
    HttpCarrierClient carrier(CarrierClientConfig::fromEnvironment());
    api::SandboxPaymentProvider payments;
    SystemClock clock;
    api::App app{db, relay, carrier, payments, clock, config};

    relay.start();
    api::ApiServer server(app, api::buildRouter(app));
    server.start();
    spdlog::info("listening on http://{}:{}", config.host, server.port());
    while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    spdlog::info("shutting down");
    server.shutdown();
    relay.stop();
    return 0;
  } catch (const std::exception& e) {
    spdlog::critical("api failed: {}", db::describeError(e));
    return 1;
  }
}
