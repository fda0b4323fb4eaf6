#include "api/http/client_address.h"

#include <arpa/inet.h>

#include <array>
#include <cstring>

namespace smsgw::api {

std::string addressKey(const std::string& client_ip) {
  std::string address = client_ip;
  // Pistache and some proxies write IPv6 hosts in brackets.
  if (address.size() > 2 && address.front() == '[' && address.back() == ']')
    address = address.substr(1, address.size() - 2);
  std::array<unsigned char, 16> bytes{};
  if (inet_pton(AF_INET, address.c_str(), bytes.data()) == 1) return "ip:" + address;
  if (inet_pton(AF_INET6, address.c_str(), bytes.data()) != 1) return "ip:" + client_ip;
  static constexpr std::array<unsigned char, 12> kMappedPrefix = {0, 0, 0, 0, 0,    0,
                                                                  0, 0, 0, 0, 0xff, 0xff};
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (std::memcmp(bytes.data(), kMappedPrefix.data(), kMappedPrefix.size()) == 0) {
    inet_ntop(AF_INET, bytes.data() + 12, text.data(), text.size());
    return "ip:" + std::string(text.data());
  }
  std::fill(bytes.begin() + 8, bytes.end(), 0);
  inet_ntop(AF_INET6, bytes.data(), text.data(), text.size());
  return "ip:" + std::string(text.data()) + "/64";
}

}  // namespace smsgw::api
