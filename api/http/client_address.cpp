#include "api/http/client_address.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>

namespace smsgw::api {

std::optional<std::string> addressBytes(std::string text) {
  size_t first = text.find_first_not_of(" \t");
  text = first == std::string::npos ? std::string()
                                    : text.substr(first, text.find_last_not_of(" \t") - first + 1);
  // Pistache and some proxies write IPv6 hosts in brackets.
  if (text.size() > 2 && text.front() == '[' && text.back() == ']')
    text = text.substr(1, text.size() - 2);
  std::array<unsigned char, 16> bytes{};
  if (inet_pton(AF_INET, text.c_str(), bytes.data()) == 1)
    return std::string(bytes.begin(), bytes.begin() + 4);
  if (inet_pton(AF_INET6, text.c_str(), bytes.data()) != 1) return std::nullopt;
  static constexpr std::array<unsigned char, 12> kMappedPrefix = {0, 0, 0, 0, 0,    0,
                                                                  0, 0, 0, 0, 0xff, 0xff};
  if (std::equal(kMappedPrefix.begin(), kMappedPrefix.end(), bytes.begin()))
    return std::string(bytes.begin() + 12, bytes.end());
  return std::string(bytes.begin(), bytes.end());
}

std::string addressKey(const std::string& client_ip) {
  auto bytes = addressBytes(client_ip);
  if (!bytes) return "ip:" + client_ip;
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (bytes->size() == 4) {
    inet_ntop(AF_INET, bytes->data(), text.data(), text.size());
    return "ip:" + std::string(text.data());
  }
  std::string prefix = bytes->substr(0, 8) + std::string(8, '\0');
  inet_ntop(AF_INET6, prefix.data(), text.data(), text.size());
  return "ip:" + std::string(text.data()) + "/64";
}

}  // namespace smsgw::api
