#include "domain/api_key.h"

#include <algorithm>
#include <cctype>

#include "domain/crypto.h"
#include "domain/ids.h"

namespace smsgw {
namespace {

constexpr std::string_view kLivePrefix = "mk_live_";
constexpr std::string_view kTestPrefix = "mk_test_";
constexpr size_t kRandomLength = 32;

bool isBase62(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isalnum(c) != 0; });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string_view toString(KeyMode mode) {
  return mode == KeyMode::Live ? "LIVE" : "TEST";
}

std::optional<KeyMode> keyModeFromString(std::string_view text) {
  if (text == "LIVE" || text == "live") return KeyMode::Live;
  if (text == "TEST" || text == "test") return KeyMode::Test;
  return std::nullopt;
}

GeneratedKey generateApiKey(KeyMode mode) {
  std::string secret =
      std::string(mode == KeyMode::Live ? kLivePrefix : kTestPrefix) + randomBase62(kRandomLength);
  return {secret, hashApiKey(secret), displayPrefix(secret)};
}

std::string hashApiKey(std::string_view secret) {
  return crypto::sha256Hex(secret);
}

std::string displayPrefix(std::string_view secret) {
  return std::string(secret.substr(0, kLivePrefix.size() + 4));
}

std::optional<KeyMode> parseApiKey(std::string_view secret) {
  auto body_ok = [&](std::string_view prefix) {
    return secret.size() == prefix.size() + kRandomLength && isBase62(secret.substr(prefix.size()));
  };
  if (secret.starts_with(kLivePrefix) && body_ok(kLivePrefix)) return KeyMode::Live;
  if (secret.starts_with(kTestPrefix) && body_ok(kTestPrefix)) return KeyMode::Test;
  return std::nullopt;
}

std::optional<std::string> presentedApiKey(std::optional<std::string_view> authorization,
                                           std::optional<std::string_view> x_api_key) {
  if (authorization) {
    std::string_view value = trim(*authorization);
    constexpr std::string_view kBearer = "bearer ";
    if (value.size() > kBearer.size()) {
      std::string scheme(value.substr(0, kBearer.size()));
      std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                     [](unsigned char c) { return std::tolower(c); });
      if (scheme == kBearer) return std::string(trim(value.substr(kBearer.size())));
    }
  }
  if (x_api_key && !trim(*x_api_key).empty()) return std::string(trim(*x_api_key));
  return std::nullopt;
}

}  // namespace smsgw
