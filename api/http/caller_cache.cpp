#include "api/http/caller_cache.h"

#include "domain/api_key.h"
#include "domain/errors.h"
#include "services/accounts/key_callers.h"

namespace smsgw::api {

CallerCache::CallerCache(db::Database& db, const Clock& clock, std::chrono::seconds ttl,
                         size_t capacity)
    : db_(db), clock_(clock), ttl_(ttl), capacity_(capacity) {}

namespace {

// The key's SHA-256, hashed once per request. Malformed keys are refused without touching the
// database.
std::string keyHashOf(const std::string& presented_key) {
  if (!parseApiKey(presented_key)) throw ApiError(ErrorCode::UNAUTHORIZED);
  return hashApiKey(presented_key);
}

}  // namespace

void CallerCache::identify(ApiRequest& req, const std::string& presented_key, bool may_guess) {
  std::string key_hash = keyHashOf(presented_key);
  if (may_guess) {
    if (auto kept = find(key_hash)) {
      req.caller = std::move(*kept);
      req.unconfirmed_key_hash = std::move(key_hash);
      return;
    }
  }
  lookUpHash(req, key_hash);
}

void CallerCache::lookUp(ApiRequest& req, const std::string& presented_key) {
  lookUpHash(req, keyHashOf(presented_key));
}

void CallerCache::lookUpHash(ApiRequest& req, const std::string& key_hash) {
  req.unconfirmed_key_hash.reset();
  try {
    req.caller = accounts::lookUpCaller(db_, key_hash, clock_.now());
  } catch (const ApiError&) {
    forget(key_hash);
    throw;
  }
  remember(key_hash, *req.caller);
}

std::optional<Caller> CallerCache::find(const std::string& key_hash) {
  if (ttl_.count() <= 0) return std::nullopt;
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key_hash);
  if (it == entries_.end()) return std::nullopt;
  if (std::chrono::steady_clock::now() - it->second.stored_at >= ttl_) {
    entries_.erase(it);
    return std::nullopt;
  }
  return it->second.caller;
}

void CallerCache::remember(const std::string& key_hash, const Caller& caller) {
  if (ttl_.count() <= 0) return;
  auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex_);
  if (entries_.size() >= capacity_ && !entries_.contains(key_hash)) {
    std::erase_if(entries_,
                  [&](const auto& entry) { return now - entry.second.stored_at >= ttl_; });
    // Still full of live entries: start again rather than track recency on every hit.
    if (entries_.size() >= capacity_) entries_.clear();
  }
  entries_.insert_or_assign(key_hash, Entry{caller, now});
}

void CallerCache::forget(const std::string& key_hash) {
  std::lock_guard lock(mutex_);
  entries_.erase(key_hash);
}

}  // namespace smsgw::api
