#pragma once
// Who the client is when the API sits behind a load balancer. The connection's peer is then the
// balancer, and every per-address limit would count the whole world as one address; the
// balancer says whom it serves in X-Forwarded-For. That header is believed only from the
// balancer's own addresses (API_TRUSTED_PROXIES): anyone else may write anything in it. The
// balancer appends the address it saw to what the client sent, so the client is the rightmost
// address that is not itself a trusted proxy; what a client wrote to the left is never read.
// Pure; safe on any thread.

#include <optional>
#include <string>
#include <vector>

namespace smsgw::api {

class TrustedProxies {
 public:
  // A comma-separated list of addresses and networks ("10.0.0.0/8, ::1, 172.20.0.5");
  // empty trusts none. Throws std::invalid_argument naming an entry that is neither.
  static TrustedProxies parse(const std::string& list);

  bool empty() const { return networks_.empty(); }
  bool contains(const std::string& address) const;

 private:
  struct Network {
    std::string bytes;  // 4 or 16 bytes, network order
    int prefix = 0;
  };
  std::vector<Network> networks_;
};

// The address a request counts as: `peer` unless `peer` is a trusted proxy and sent
// X-Forwarded-For (`forwarded_for`, its values joined by ", "), then the rightmost address in
// it that is not trusted. An entry that is not an address ends the walk at the peer's word:
// the request counts as the last trusted hop rather than as a name a client made up.
std::string forwardedClient(const TrustedProxies& proxies, const std::string& peer,
                            const std::optional<std::string>& forwarded_for);

}  // namespace smsgw::api
