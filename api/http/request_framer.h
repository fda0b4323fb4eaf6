#pragma once
// Cuts the bytes of one client connection into whole HTTP/1.x requests with Debian's strict
// http-parser, before anything else reads them. Pistache 0.0.5's own parser reads a body of any
// size before refusing it in plain text (at a cost that grows with the square of the excess),
// takes the first of two Content-Length headers, accepts header lines without a colon and drops
// the second of two pipelined requests. So the edge uses Pistache for sockets and writing, and
// this framer for reading: a refusal is decided from the request line and headers, before the
// body is read, and answered in the spec's shape.
//
// One per connection, fed by that connection's reactor thread; not thread-safe.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "domain/errors.h"

namespace smsgw::api {

// One request as the client framed it.
struct FramedRequest {
  std::string method;  // as sent, e.g. "POST"
  std::string target;  // the request-target, e.g. "/v1/messages?limit=5"
  std::vector<std::pair<std::string, std::string>> headers;  // in order, names as sent
  std::string body;                                          // de-chunked
  int http_minor = 1;                                        // HTTP/1.0 or HTTP/1.1
  bool keep_alive = true;  // false: answer it, then close the connection
};

struct FramerLimits {
  size_t max_header_bytes = size_t{32} * 1024;       // request line and headers; beyond: 431
  size_t max_body_bytes = size_t{1024} * 1024;       // declared or received; beyond: 413
  std::chrono::milliseconds header_timeout{10'000};  // first byte to the end of the headers
  std::chrono::milliseconds body_timeout{60'000};    // end of the headers to the end of the body
};

class RequestFramer {
 public:
  using Clock = std::chrono::steady_clock;

  struct Event {
    enum class Kind { Request, Continue, Refusal };
    Kind kind = Kind::Request;
    FramedRequest request;                               // Kind::Request
    ErrorCode refusal = ErrorCode::FST_ERR_BAD_REQUEST;  // Kind::Refusal: answer, then close
  };

  explicit RequestFramer(FramerLimits limits);
  ~RequestFramer();
  RequestFramer(const RequestFramer&) = delete;
  RequestFramer& operator=(const RequestFramer&) = delete;

  // Every event these bytes complete, in order. After a refusal, or a request that does not
  // keep the connection alive, the framer is closed and ignores whatever follows.
  std::vector<Event> feed(std::string_view bytes, Clock::time_point now);
  // FST_ERR_REQUEST_TIMEOUT once a request begun has overrun its header or body time.
  std::optional<ErrorCode> overdue(Clock::time_point now) const;
  bool closed() const;
  bool midRequest() const;  // some bytes of a request have come, not all of them
  int httpMinor() const;    // of the request being read, for the status line of a refusal

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace smsgw::api
