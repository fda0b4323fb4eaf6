#pragma once
// An OAuth client known by its metadata document's URL (the client id metadata document of
// today's MCP clients): the authorization server fetches the document the URL names. The URL
// comes from a stranger, so the fetch goes through the webhook SSRF guard (webhook_target.h:
// https only and no internal address, loopback allowed on a local stack), connects to the
// address checked, follows no redirect, and takes at most 64 KiB within 5 seconds, parsed with
// the request bodies' depth limit.

#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "domain/clock.h"

namespace smsgw::oauth {

struct FetchedClientMetadata {
  enum class Outcome { Fetched, Refused, Failed };
  Outcome outcome = Outcome::Failed;
  nlohmann::json document;  // a JSON object when Fetched
  // Why not, for the log only: told to the client, it would make the fetch a port scanner
  // ("connection refused" against "nothing returned" for each internal address and port).
  std::string reason;
  std::chrono::seconds fresh_for{0};
};

FetchedClientMetadata fetchClientMetadata(const std::string& url, bool allow_loopback);

// The fetch, with a short memory of failures: a URL whose document could not be had is not
// fetched again for `failure_memory`, so a server that never answers costs one fetch a minute
// instead of five seconds of a thread for every request that names it. Holds at most
// `capacity` URLs (when full, the oldest failures are forgotten first). Thread-safe.
class ClientMetadataFetcher {
 public:
  explicit ClientMetadataFetcher(std::chrono::seconds failure_memory = std::chrono::seconds(60),
                                 size_t capacity = 10000);
  FetchedClientMetadata fetch(const std::string& url, bool allow_loopback, TimePoint now);

 private:
  std::chrono::seconds failure_memory_;
  size_t capacity_;
  std::mutex mutex_;
  std::unordered_map<std::string, TimePoint> failed_until_;
};

// How long a response may be reused, from its Cache-Control: max-age (at most a day), nothing
// for no-store or no-cache, five minutes when the header says neither.
std::chrono::seconds freshnessOf(const std::string& cache_control);

}  // namespace smsgw::oauth
