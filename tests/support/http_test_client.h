#pragma once
// A small HTTP client for tests: JSON in and out, response headers captured, and an optional
// reusable connection (to observe keep-alive).

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace smsgw::testing {

struct Reply {
  long status = 0;
  nlohmann::json body;
  std::string raw_body;
  // Lower-cased names; a header sent more than once (Set-Cookie) holds its values one per line.
  std::map<std::string, std::string> headers;
  long new_connections = 0;
  std::string header(const std::string& name) const;
};

using Headers = std::vector<std::pair<std::string, std::string>>;

class HttpTestClient {
 public:
  explicit HttpTestClient(std::string base_url);
  ~HttpTestClient();
  // `body` is sent as JSON unless null; `raw` overrides it.
  Reply call(const std::string& method, const std::string& path, const Headers& headers = {},
             const nlohmann::json& body = nullptr, const std::string* raw = nullptr);
  // Trusts the certificates in this PEM file (a test's own authority) for https URLs.
  void trust(const std::string& ca_file) { ca_file_ = ca_file; }

 private:
  std::string base_url_;
  std::string ca_file_;
  void* curl_;  // one handle, so connections are reused when the server keeps them open
};

Headers bearer(const std::string& key, Headers more = {});

// The `id` of a resource a call created or read; a failure of the test (and "") when the call
// answered neither 200 nor 201.
std::string idOf(const Reply& reply);

}  // namespace smsgw::testing
