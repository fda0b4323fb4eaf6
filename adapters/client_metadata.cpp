#include "adapters/client_metadata.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "adapters/http_client.h"
#include "adapters/webhook_target.h"

namespace smsgw::oauth {
namespace {

constexpr size_t kMaxDocumentBytes = 64 * 1024;
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
  auto document = nlohmann::json::parse(response.body, nullptr, false);
  if (document.is_discarded() || !document.is_object()) return failed("not a JSON object");
  return {FetchedClientMetadata::Outcome::Fetched, std::move(document), "",
          freshnessOf(fetched.cache_control)};
}

}  // namespace smsgw::oauth
