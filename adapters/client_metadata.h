#pragma once
// An OAuth client known by its metadata document's URL (the client id metadata document of
// today's MCP clients): the authorization server fetches the document the URL names. The URL
// comes from a stranger, so the fetch goes through the webhook SSRF guard (webhook_target.h:
// https only and no internal address, loopback allowed on a local stack), connects to the
// address checked, follows no redirect, and takes at most 64 KiB within 5 seconds.

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

namespace smsgw::oauth {

struct FetchedClientMetadata {
  enum class Outcome { Fetched, Refused, Failed };
  Outcome outcome = Outcome::Failed;
  nlohmann::json document;  // a JSON object when Fetched
  std::string reason;       // why not, for the error's details
  std::chrono::seconds fresh_for{0};
};

FetchedClientMetadata fetchClientMetadata(const std::string& url, bool allow_loopback);

// How long a response may be reused, from its Cache-Control: max-age (at most a day), nothing
// for no-store or no-cache, five minutes when the header says neither.
std::chrono::seconds freshnessOf(const std::string& cache_control);

}  // namespace smsgw::oauth
