#include "api/http/forwarded_client.h"

#include <stdexcept>

#include "api/http/client_address.h"

namespace smsgw::api {
namespace {

std::string trimmed(const std::string& text) {
  size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

bool samePrefix(const std::string& a, const std::string& b, int prefix) {
  if (a.size() != b.size()) return false;
  int whole = prefix / 8;
  if (a.compare(0, whole, b, 0, whole) != 0) return false;
  int rest = prefix % 8;
  if (rest == 0) return true;
  auto mask = static_cast<unsigned char>(0xff << (8 - rest));
  return (static_cast<unsigned char>(a[whole]) & mask) ==
         (static_cast<unsigned char>(b[whole]) & mask);
}

}  // namespace

TrustedProxies TrustedProxies::parse(const std::string& list) {
  TrustedProxies proxies;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string entry = trimmed(list.substr(start, comma - start));
    start = comma == std::string::npos ? list.size() + 1 : comma + 1;
    if (entry.empty()) continue;
    size_t slash = entry.find('/');
    auto bytes = addressBytes(entry.substr(0, slash));
    if (!bytes) throw std::invalid_argument("not an address or network: " + entry);
    int bits = static_cast<int>(bytes->size() * 8);
    int prefix = bits;
    if (slash != std::string::npos) {
      std::string length = entry.substr(slash + 1);
      if (length.empty() || length.size() > 3 ||
          length.find_first_not_of("0123456789") != std::string::npos || std::stoi(length) > bits)
        throw std::invalid_argument("not an address or network: " + entry);
      prefix = std::stoi(length);
    }
    proxies.networks_.push_back({*bytes, prefix});
  }
  return proxies;
}

bool TrustedProxies::contains(const std::string& address) const {
  auto bytes = addressBytes(address);
  if (!bytes) return false;
  for (const auto& network : networks_)
    if (samePrefix(*bytes, network.bytes, network.prefix)) return true;
  return false;
}

std::string forwardedClient(const TrustedProxies& proxies, const std::string& peer,
                            const std::optional<std::string>& forwarded_for) {
  if (!forwarded_for || !proxies.contains(peer)) return peer;
  std::string client = peer;
  std::string rest = *forwarded_for;
  while (!rest.empty()) {
    size_t comma = rest.rfind(',');
    std::string hop = trimmed(comma == std::string::npos ? rest : rest.substr(comma + 1));
    rest = comma == std::string::npos ? std::string() : rest.substr(0, comma);
    if (!addressBytes(hop)) return client;
    client = hop;
    if (!proxies.contains(hop)) return client;
  }
  return client;
}

}  // namespace smsgw::api
