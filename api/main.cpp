// smsgw-api: reads its settings, wires the database, producer, outbox relay, carrier client and
// payment provider, serves until SIGTERM.
#include <spdlog/spdlog.h>

#include <thread>

#include "adapters/client_metadata.h"
#include "adapters/env.h"
#include "adapters/http_carrier_client.h"
#include "adapters/log.h"
#include "adapters/mailer.h"
#include "adapters/sandbox_payments.h"
#include "adapters/settings.h"
#include "api/app.h"
#include "api/http/server.h"
#include "api/routes/routes.h"
#include "db/error_text.h"
#include "domain/carrier_callback.h"
#include "topics/consumer_loop.h"
#include "topics/process_ops.h"

using namespace smsgw;

namespace {

// Everything smsgw-api reads from its environment, in one place.
struct ApiProcessConfig {
  api::ApiConfig api;
  std::string database_url;
  bool prepared_statements = true;
  KafkaSettings kafka;
  CarrierClientConfig carrier;
  OpsEndpointConfig ops;  // /metrics, /health, /ready on their own port
  std::string mail_drop_dir;
  std::string trusted_proxies;  // as written; parsed into api.trusted_proxies
  std::string request_limits = "shared";
};

void addTrustedProxySettings(ProcessSettings& settings, ApiProcessConfig& c) {
  settings.add("API_TRUSTED_PROXIES", c.trusted_proxies,
               "the load balancer's addresses and networks, comma-separated: only their "
               "X-Forwarded-For names the client a per-address limit counts",
               "none: the connection's peer is the client");
  settings.afterReading(
      [&c] { c.api.trusted_proxies = api::TrustedProxies::parse(c.trusted_proxies); });
}

void addRequestLimitSettings(ProcessSettings& settings, ApiProcessConfig& c) {
  settings.add("API_REQUEST_LIMITS", c.request_limits,
               "where the request limits are kept: shared (in PostgreSQL, for every API "
               "instance together) or process (each instance its own: N instances give N times "
               "each limit)");
  settings.afterReading([&c] {
    if (c.request_limits != "shared" && c.request_limits != "process")
      throw std::invalid_argument("API_REQUEST_LIMITS must be shared or process");
    c.api.request_limits_per_process = c.request_limits == "process";
  });
}

void addOAuthSettings(ProcessSettings& settings, api::ApiConfig& c) {
  settings.add("PUBLIC_BASE_URL", c.public_base_url,
               "where clients reach the API: the OAuth issuer, and the MCP resource's base",
               "required; http://API_HOST:API_PORT on a local stack");
  settings.addSecret("OAUTH_FORM_SECRET", c.oauth_form_secret, "local-oauth-form-secret",
                     "keys the OAuth consent form's CSRF token");
  settings.add("OAUTH_ACCESS_TOKEN_SECONDS", c.oauth_access_token_ttl,
               "life of an OAuth access token (an API key held by the connection)");
  settings.add("OAUTH_REFRESH_TOKEN_SECONDS", c.oauth_refresh_token_ttl,
               "life of an OAuth refresh token; each use replaces it");
  settings.add("DASHBOARD_SESSION_SECONDS", c.dashboard_session_ttl,
               "life of a dashboard sign-in (its session keys and cookies)");
  settings.add("DASHBOARD_DIR", c.dashboard_dir,
               "the built dashboard served at /dashboard (ops/up builds dashboard/dist)",
               "none: /dashboard answers 404");
}

void addApiSettings(ProcessSettings& settings, api::ApiConfig& c) {
  settings.add("API_HOST", c.host, "listen address");
  settings.add("API_PORT", c.port, "listen port");
  settings.add("API_THREADS", c.threads, "HTTP reactor threads");
  settings.add("API_SLOW_LANE_THREADS", c.slow_lane_threads,
               "threads for slow operations (docs/http-edge.md)");
  settings.add("API_SLOW_REQUESTS_PER_ACCOUNT", c.slow_requests_per_tenant,
               "slow operations an account runs at once");
  settings.add("API_SLOW_WAITING_PER_ACCOUNT", c.slow_requests_waiting_per_tenant,
               "slow operations of an account waiting behind those; one more answers 429");
  settings.add("API_ANONYMOUS_LANE_THREADS", c.anonymous_lane_threads,
               "threads for slow operations before authentication (signup, OAuth)");
  settings.add("API_SLOW_REQUESTS_PER_ADDRESS", c.slow_requests_per_address,
               "slow operations before authentication a client address (IPv6: its /64) runs at "
               "once");
  settings.add("API_SLOW_WAITING_PER_ADDRESS", c.slow_requests_waiting_per_address,
               "slow operations of an address waiting behind those; one more answers 429");
  c.db_pool_size = 0;
  settings.add("API_DB_POOL_SIZE", c.db_pool_size, "PostgreSQL connections",
               "API_THREADS + API_SLOW_LANE_THREADS + API_ANONYMOUS_LANE_THREADS");
  settings.add("API_RATE_LIMIT_PER_SECOND", c.requests_per_second,
               "requests per second per account (staff may set an account's own)");
  settings.add("API_PUBLIC_RATE_LIMIT_PER_MINUTE", c.public_requests_per_minute,
               "unauthenticated requests (signup, OAuth) per minute per client address (IPv6: "
               "its /64)");
  settings.add("API_KEY_CACHE_SECONDS", c.key_cache_ttl,
               "how long a key's caller is kept for POST /v1/messages, which confirms it in its "
               "own read; 0 keeps none");
  settings.add("API_MAX_BODY_BYTES", c.max_body_bytes, "larger bodies answer 413");
  settings.add("API_HEADER_TIMEOUT_MS", c.header_timeout,
               "a request's first byte to the end of its headers");
  settings.add("API_BODY_TIMEOUT_MS", c.body_timeout,
               "the end of its headers to the end of its body");
  settings.add("API_KEEP_ALIVE_TIMEOUT_MS", c.keep_alive_timeout, "an idle connection's life");
  settings.add("ALLOW_PRIVATE_WEBHOOK_TARGETS", c.allow_private_webhook_targets,
               "local stacks: accept http and loopback webhook URLs (never private networks)");
  settings.add("WEBHOOK_TIMEOUT_MS", c.webhook_timeout, "how long a dead-letter replay waits");
  settings.add("PLATFORM_SENDER_NUMBER", c.platform_sender,
               "sender of platform texts (owner verification codes)");
  settings.add("OWNER_CODE_RESEND_SECONDS", c.owner_code_resend_seconds,
               "between two owner-phone codes of an account");
  settings.addSecret("TELNYX_PUBLIC_KEY", c.carrier_webhook_public_key, kSimulatorWebhookPublicKey,
                     "Telnyx's public key (Mission Control, Keys & Credentials, base64): checks "
                     "the Ed25519 signature of every carrier callback");
  addVerificationCodeSecret(settings, c.verification_code_secret);
  addSendPolicySettings(settings, c.send_policy);
  addOAuthSettings(settings, c);
  settings.afterReading([&c] {
    // A key that cannot verify anything would refuse every receipt and inbound text in silence.
    if (!isEd25519PublicKey(c.carrier_webhook_public_key))
      throw std::invalid_argument(
          "TELNYX_PUBLIC_KEY is not an Ed25519 public key (base64 of 32 bytes)");
    // Every reactor and slow-lane thread may hold a connection at once: none waits for a
    // connection that another holds while it waits on the carrier.
    if (c.db_pool_size <= 0)
      c.db_pool_size = c.threads + c.slow_lane_threads + c.anonymous_lane_threads;
    // The OAuth issuer and the MCP resource's identifier: clients compare them byte for byte,
    // so production names its public https address rather than the listening one.
    if (c.public_base_url.empty() && !env::isLocalStack())
      throw std::invalid_argument("PUBLIC_BASE_URL is unset: set the API's public https URL");
    if (!c.public_base_url.empty() && !c.public_base_url.starts_with("https://") &&
        !env::isLocalStack())
      throw std::invalid_argument("PUBLIC_BASE_URL must be an https URL");
    if (c.public_base_url.empty())
      c.public_base_url = "http://" + c.host + ":" + std::to_string(c.port);
    while (c.public_base_url.ends_with('/')) c.public_base_url.pop_back();
  });
}

}  // namespace

int main(int argc, char** argv) {
  ApiProcessConfig config;
  ProcessSettings settings("smsgw-api", "The REST API: validates, charges, and publishes work");
  addApiSettings(settings, config.api);
  addTrustedProxySettings(settings, config);
  addRequestLimitSettings(settings, config);
  addDatabaseSettings(settings, config.database_url, config.prepared_statements);
  addKafkaSettings(settings, config.kafka);
  addCarrierSettings(settings, config.carrier);
  addOpsEndpointSettings(settings, config.ops);
  addMailerSettings(settings, config.mail_drop_dir);
  settings.parse(argc, argv);

  initLogging("api");
  try {
    const auto& stop = topics::stopOnSignals();
    db::Database db(config.database_url, static_cast<size_t>(config.api.db_pool_size),
                    config.prepared_statements);
    topics::Producer producer(config.kafka.brokers, "smsgw-api", config.kafka.properties);
    topics::OutboxRelay relay(db, producer);
    HttpCarrierClient carrier(config.carrier);
    SandboxPaymentProvider payments;
    SystemClock clock;
    oauth::ClientMetadataFetcher client_documents;
    LogMailer mailer(config.mail_drop_dir);
    api::App app{db, relay, carrier, payments, clock, client_documents, mailer, config.api};

    relay.start();
    auto ops = topics::startProcessOps(config.ops, db, producer);
    api::ApiServer server(app, api::buildRouter(app));
    server.start();
    spdlog::info("listening on http://{}:{}", config.api.host, server.port());
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
