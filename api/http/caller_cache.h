#pragma once
// Who is calling, from the API key the request presents. The callers of recently seen keys are
// kept by the key's SHA-256 (never the secret itself), but a kept caller is only a guess: it
// serves only routes that confirm it in their own transaction (RouteOptions::confirms_caller,
// accounts::confirmCaller in services/accounts/key_callers.h), so a revoked key, a suspended
// account or changed permissions are seen at once however old the entry is. Why: POST /v1/messages
// is the hot path, and the key lookup was a round trip of its own (ops/bench/RESULTS.md, seventh
// run). Entries live `ttl` (0: nothing is kept). Thread-safe.

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "api/http/api_types.h"
#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::api {

class CallerCache {
 public:
  CallerCache(db::Database& db, const Clock& clock, std::chrono::seconds ttl, size_t capacity);

  // Sets req.caller: a kept one when `may_guess` (and req.unconfirmed_key_hash with it), else
  // one looked up now. Throws ApiError UNAUTHORIZED or API_KEY_REVOKED.
  void identify(ApiRequest& req, const std::string& presented_key, bool may_guess);
  // Looks the key up now and keeps the answer: sets req.caller and clears
  // req.unconfirmed_key_hash. Throws as identify does, and then forgets the key.
  void lookUp(ApiRequest& req, const std::string& presented_key);

 private:
  struct Entry {
    Caller caller;
    std::chrono::steady_clock::time_point stored_at;
  };
  void lookUpHash(ApiRequest& req, const std::string& key_hash);
  std::optional<Caller> find(const std::string& key_hash);
  void remember(const std::string& key_hash, const Caller& caller);
  void forget(const std::string& key_hash);

  db::Database& db_;
  const Clock& clock_;
  std::chrono::seconds ttl_;
  size_t capacity_;
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace smsgw::api
