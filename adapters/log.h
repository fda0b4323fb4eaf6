#pragma once
// Process logging: one spdlog logger to stderr whose every line is a JSON object
// ({"time", "level", "process", "request_id"?, "message"}), so that one send can be followed
// with one grep from the HTTP request to the receipt and the webhook: the API names each request
// (X-Request-Id), the id travels with every Kafka record it causes (the `request-id` header, from
// the outbox's request_id column), and each consumer handles the record inside its RequestScope.

#include <string>
#include <string_view>

namespace smsgw {

void initLogging(std::string_view process_name);

// The request the calling thread works for, for the length of the scope: log lines name it and
// the database sessions this thread leases stamp it on the outbox rows they write (db/database.h).
// Scopes nest; an empty id is no request.
class RequestScope {
 public:
  explicit RequestScope(std::string request_id);
  ~RequestScope();
  RequestScope(const RequestScope&) = delete;
  RequestScope& operator=(const RequestScope&) = delete;

  // The calling thread's request id, or "".
  static const std::string& current();

 private:
  std::string previous_;
};

}  // namespace smsgw
