#pragma once
// Whom a per-address limit counts: a client's IPv4 address, or the /64 of an IPv6 one (one
// subscriber is routinely handed a whole /64, so counting single IPv6 addresses would give each
// client 2^64 of them). An IPv4 address written as IPv6 (::ffff:a.b.c.d) counts as itself.
// Pure; safe on any thread.

#include <optional>
#include <string>

namespace smsgw::api {

// An address's bytes in network order: 4 for IPv4 (also when written as ::ffff:a.b.c.d), 16 for
// IPv6; brackets around IPv6 and spaces around either are allowed. Nothing for any other text.
std::optional<std::string> addressBytes(std::string text);

// "ip:203.0.113.7", "ip:2001:db8:1:2::/64"; the text itself when it is not an address.
std::string addressKey(const std::string& client_ip);

}  // namespace smsgw::api
