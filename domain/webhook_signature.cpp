#include "domain/webhook_signature.h"

#include <fmt/format.h>

#include <stdexcept>

#include "domain/crypto.h"

namespace smsgw {
namespace {

constexpr std::string_view kSecretPrefix = "whsec_";

std::string keyOf(std::string_view secret) {
  if (!secret.starts_with(kSecretPrefix))
    throw std::invalid_argument("webhook secret must start with whsec_");
  return crypto::base64Decode(secret.substr(kSecretPrefix.size()));
}

}  // namespace

std::string newWebhookSecret() {
  return std::string(kSecretPrefix) + crypto::base64(crypto::randomBytes(32));
}

std::string signWebhook(std::string_view secret, std::string_view event_id, long long timestamp,
                        std::string_view body) {
  std::string signed_content = fmt::format("{}.{}.{}", event_id, timestamp, body);
  return "v1," + crypto::base64(crypto::hmacSha256(keyOf(secret), signed_content));
}

bool verifyWebhook(std::string_view secret, std::string_view event_id, long long timestamp,
                   std::string_view body, std::string_view header) {
  std::string expected = signWebhook(secret, event_id, timestamp, body);
  size_t pos = 0;
  while (pos < header.size()) {
    size_t space = header.find(' ', pos);
    std::string_view candidate =
        header.substr(pos, space == std::string_view::npos ? space : space - pos);
    if (crypto::constantTimeEquals(candidate, expected)) return true;
    if (space == std::string_view::npos) break;
    pos = space + 1;
  }
  return false;
}

}  // namespace smsgw
