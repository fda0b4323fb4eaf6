#pragma once
// API key secrets: generation, parsing and hashing. Secrets are shown once and stored only
// as SHA-256 digests: they carry 190 random bits, so a slow hash would add nothing.

#include <optional>
#include <string>
#include <string_view>

namespace smsgw {

enum class KeyMode { Live, Test };

std::string_view toString(KeyMode mode);  // "LIVE" / "TEST"
std::optional<KeyMode> keyModeFromString(std::string_view text);

struct GeneratedKey {
  std::string secret;      // mk_live_… or mk_test_…, shown to the caller once
  std::string hash;        // what the database keeps
  std::string key_prefix;  // non-secret display prefix
};

GeneratedKey generateApiKey(KeyMode mode);
std::string hashApiKey(std::string_view secret);
std::string displayPrefix(std::string_view secret);

// The mode a well-formed secret claims, or nothing for anything else.
std::optional<KeyMode> parseApiKey(std::string_view secret);

// The key a request presents: `Authorization: Bearer <key>` wins over `X-API-Key`.
std::optional<std::string> presentedApiKey(std::optional<std::string_view> authorization,
                                           std::optional<std::string_view> x_api_key);

}  // namespace smsgw
