#pragma once
// What routes are given: the API's read-only config and the narrow services they use.
// Wired once in main.cpp; shared by all request threads (every member is thread-safe).

#include <chrono>
#include <string>

#include "adapters/client_metadata.h"
#include "adapters/mailer.h"
#include "api/http/forwarded_client.h"
#include "db/database.h"
#include "domain/carrier_client.h"
#include "domain/clock.h"
#include "domain/payment_provider.h"
#include "domain/send_policy.h"
#include "topics/outbox_relay.h"

namespace smsgw::api {

struct ApiConfig {
  std::string host = "127.0.0.1";
  int port = 8080;
  int threads = 4;
  int db_pool_size = 12;  // by default threads + slow_lane_threads
  size_t max_body_bytes =
      size_t{1024} * 1024;  // larger bodies answer 413 FST_ERR_CTP_BODY_TOO_LARGE
  size_t max_header_bytes = size_t{32} * 1024;           // request line and headers; beyond: 431
  std::chrono::milliseconds header_timeout{10'000};      // a request's first byte to its headers
  std::chrono::milliseconds body_timeout{60'000};        // its headers to the end of its body
  std::chrono::milliseconds keep_alive_timeout{75'000};  // idle between requests
  int slow_lane_threads = 8;                             // slow_lane.h
  int slow_requests_per_tenant = 4;                      // running at once per account
  int slow_requests_waiting_per_tenant = 32;             // behind those; one more answers 429
  // Unauthenticated slow work (signup's and the consent page's password hashing, fetching an
  // OAuth client's metadata document) runs on a lane of its own, so a stranger never holds a
  // thread an account needs.
  int anonymous_lane_threads = 4;
  int slow_requests_per_address = 2;          // running at once per client address (IPv6: /64)
  int slow_requests_waiting_per_address = 8;  // behind those; one more answers 429
  // The load balancer's addresses: their X-Forwarded-For names the client (forwarded_client.h).
  TrustedProxies trusted_proxies;
  // Each instance keeps its own limits (API_REQUEST_LIMITS=process) rather than all together.
  bool request_limits_per_process = false;
  int requests_per_second = 100;
  int public_requests_per_minute = 20;     // unauthenticated routes such as signup, per address
  std::chrono::seconds key_cache_ttl{60};  // callers of recent keys, for routes that confirm them
  size_t key_cache_capacity = 100000;
  bool allow_private_webhook_targets = false;        // local stacks only (docs/decisions.md)
  std::chrono::milliseconds webhook_timeout{10000};  // a replay waits this long for the endpoint
  std::string platform_sender = "+15873190000";      // platform texts (owner verification codes)
  std::string terms_version = "2026-01";
  std::string carrier_webhook_public_key;  // Telnyx's Ed25519 key, base64: checks its callbacks
  std::string verification_code_secret;    // keys the HMAC under which owner codes are stored
  int owner_code_resend_seconds = 30;      // between two owner-verification texts of an account
  SendPolicy send_policy;                  // send limits and pacing
  // Where clients reach this API (no trailing slash): the OAuth issuer and the MCP resource.
  std::string public_base_url;
  std::string oauth_form_secret;  // keys the consent form's CSRF token
  std::chrono::seconds oauth_access_token_ttl{3600};
  std::chrono::seconds oauth_refresh_token_ttl{30 * 24 * 3600};
  std::chrono::seconds dashboard_session_ttl{12 * 3600};  // a dashboard sign-in's life
  std::string dashboard_dir;  // the built dashboard (dashboard/dist); empty: none served

  // Served over HTTPS: cookies are Secure and take the __Host- prefix (dashboard_session.h).
  bool secureCookies() const { return public_base_url.starts_with("https://"); }
};

struct App {
  db::Database& db;
  topics::OutboxRelay& relay;
  CarrierClient& carrier;
  PaymentProvider& payments;
  const Clock& clock;
  oauth::ClientMetadataFetcher& client_documents;  // OAuth clients known by a document's URL
  Mailer& mailer;  // email to owners: sign-in links and notices (services/accounts/owner_mail.h)
  const ApiConfig& config;
};

}  // namespace smsgw::api
