#include "adapters/client_metadata.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "adapters/http_client.h"
#include "adapters/webhook_target.h"
#include "domain/bounded_json.h"

namespace smsgw::oauth {
namespace {

constexpr size_t kMaxDocumentBytes = size_t{64} * 1024;
constexpr std::chrono::milliseconds kFetchTimeout{5000};
constexpr std::chrono::seconds kDefaultFreshness{300};
constexpr std::chrono::seconds kLongestFreshness{24 * 3600};

FetchedClientMetadata refused(std::string reason) {
  return {FetchedClientMetadata::Outcome::Refused, nullptr, std::move(reason), {}};
}

FetchedClientMetadata failed(std::string reason) {
  return {FetchedClientMetadata::Outcome::Failed, nullptr, std::move(reason), {}};
}

}  // namespace

std::chrono::seconds freshnessOf(const std::string& cache_control) {
  std::string lower = cache_control;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower.find("no-store") != std::string::npos || lower.find("no-cache") != std::string::npos)
    return std::chrono::seconds(0);
  static const std::regex kMaxAge(R"((?:^|[,\s])max-age\s*=\s*"?(\d{1,10}))");
  std::smatch match;
  if (!std::regex_search(lower, match, kMaxAge)) return kDefaultFreshness;
  return std::min(std::chrono::seconds(std::stoll(match[1])), kLongestFreshness);
}

FetchedClientMetadata fetchClientMetadata(const std::string& url, bool allow_loopback) {
  TargetVerdict registration = checkWebhookRegistration(url, allow_loopback);
  if (registration == TargetVerdict::InvalidUrl) return refused("invalid_url");
  if (registration == TargetVerdict::NotHttps) return refused("not_https");
  if (registration == TargetVerdict::PrivateAddress) return refused("private_address");
  // Resolved again for the fetch: the connection uses the very address this check passed.
  ResolvedTarget target = resolveWebhookTarget(url, allow_loopback);
  if (target.verdict == TargetVerdict::PrivateAddress) return refused("private_address");
  if (target.verdict != TargetVerdict::Allowed) return failed("unresolvable");
  PinnedAddress pinned{target.target.host, target.target.port, target.address};
  BoundedResponse fetched =
      httpGetBounded(url, {{"Accept", "application/json"}, {"User-Agent", "smsgw-oauth/1"}},
                     kFetchTimeout, pinned, kMaxDocumentBytes);
  const HttpResponse& response = fetched.response;
  if (response.status == 0) return failed(response.timed_out ? "timeout" : response.error);
  if (response.status != 200) return failed("status " + std::to_string(response.status));
  // The same depth limit as request bodies: the document is a stranger's input too.
  BoundedJson parsed = parseBoundedJson(response.body);
  if (parsed.outcome == BoundedJson::Outcome::TooDeep) return failed("nested too deep");
  if (parsed.outcome != BoundedJson::Outcome::Parsed || !parsed.value.is_object())
    return failed("not a JSON object");
  return {FetchedClientMetadata::Outcome::Fetched, std::move(parsed.value), "",
          freshnessOf(fetched.cache_control)};
}

ClientMetadataFetcher::ClientMetadataFetcher(std::chrono::seconds failure_memory, size_t capacity)
    : failure_memory_(failure_memory), capacity_(capacity) {}

FetchedClientMetadata ClientMetadataFetcher::fetch(const std::string& url, bool allow_loopback,
                                                   TimePoint now) {
  {
    std::lock_guard lock(mutex_);
    auto it = failed_until_.find(url);
    if (it != failed_until_.end() && it->second > now)
      return failed("failed a moment ago; not fetched again yet");
    if (it != failed_until_.end()) failed_until_.erase(it);
  }
  FetchedClientMetadata fetched = fetchClientMetadata(url, allow_loopback);
  if (fetched.outcome != FetchedClientMetadata::Outcome::Failed) return fetched;
  std::lock_guard lock(mutex_);
  if (failed_until_.size() >= capacity_) {
    std::erase_if(failed_until_, [&](const auto& entry) { return entry.second <= now; });
    while (failed_until_.size() >= capacity_) {
      auto oldest =
          std::min_element(failed_until_.begin(), failed_until_.end(),
                           [](const auto& a, const auto& b) { return a.second < b.second; });
      failed_until_.erase(oldest);
    }
  }
  failed_until_[url] = now + failure_memory_;
  return fetched;
}

}  // namespace smsgw::oauth
