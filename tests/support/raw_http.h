#pragma once
// One TCP connection to the API for tests that must send exactly the bytes they choose
// (malformed framing, pipelining, stalls, bodies larger than they send) and watch what comes
// back, including the moment the server closes. Optionally from a chosen loopback source
// address (127.0.0.x), so a test owns the per-address limits it meets. Not thread-safe.

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace smsgw::testing {

struct RawResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-cased names
  std::string body;
  nlohmann::json json;  // the body parsed, or discarded when it is not JSON
  std::string header(const std::string& name) const;
};

class RawHttpConnection {
 public:
  explicit RawHttpConnection(const std::string& base_url, const std::string& source_address = "");
  ~RawHttpConnection();
  RawHttpConnection(const RawHttpConnection&) = delete;
  RawHttpConnection& operator=(const RawHttpConnection&) = delete;

  // False when the server has closed (or reset) the connection.
  bool send(std::string_view bytes);
  // The next response; nullopt when the connection ended or nothing complete came in time.
  // `to_head`: the answer to a HEAD request, whose Content-Length is the GET's and which has no
  // body.
  std::optional<RawResponse> read(std::chrono::milliseconds timeout = std::chrono::seconds(20),
                                  bool to_head = false);
  // True when the server closes the connection within `timeout` (whatever it still sends
  // first is dropped).
  bool closesWithin(std::chrono::milliseconds timeout);

 private:
  bool fill(std::chrono::steady_clock::time_point deadline);

  int fd_ = -1;
  std::string buffer_;
  bool ended_ = false;
};

// "METHOD target HTTP/1.1" with the given header lines and body (Content-Length added when
// the body is not empty and no header names one).
std::string rawRequest(const std::string& method, const std::string& target,
                       const std::map<std::string, std::string>& headers = {},
                       const std::string& body = "");

}  // namespace smsgw::testing
