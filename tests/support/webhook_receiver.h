#pragma once
// A real HTTP endpoint for tests on a free loopback port that keeps every request it gets and
// answers as told: 200, another status, a redirect, no answer until the client gives up, or a
// connection closed without a word. Plain sockets, one thread per connection, so that a
// hanging answer delays nobody else; a connection answered 200 stays open for the next request
// (HTTP/1.1 keep-alive), any other answer closes it. Thread-safe.

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace smsgw::testing {

struct ReceivedRequest {
  std::map<std::string, std::string> headers;  // lower-cased names
  std::string body;
  std::chrono::system_clock::time_point received_at;
};

enum class ReceiverAnswer {
  Ok,        // 200 {}
  Status,    // the status given to answerWith (500 unless told)
  Redirect,  // 302 to another path of this receiver
  Hang,      // reads the request, then answers nothing until the client leaves
  Close,     // reads the request, then closes the connection
  Document,  // 200 with the body and Cache-Control given to serveDocument
};

class WebhookReceiver {
 public:
  WebhookReceiver();
  ~WebhookReceiver();
  std::string url() const;  // http://127.0.0.1:<port>/hook
  int port() const;
  void answerWith(ReceiverAnswer answer, int status = 500);
  // Answers every request with this JSON body (an OAuth client's metadata document).
  void serveDocument(std::string body, std::string cache_control);
  // Waits until at least `count` requests arrived; returns all received so far.
  std::vector<ReceivedRequest> waitFor(size_t count, std::chrono::seconds timeout);
  size_t received() const;
  size_t connectionsAccepted() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace smsgw::testing
