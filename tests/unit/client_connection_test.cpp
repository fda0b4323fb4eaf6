// One client connection's answers and end: a request that arrives while an answer is still
// being worked on off the reactor is dropped, and the connection ends after that answer, so the
// client sends it again (RFC 9112 9.3.2) instead of waiting for an answer that never comes.
#include "api/http/client_connection.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace smsgw::api;
using Kind = RequestFramer::Event::Kind;
using namespace std::chrono_literals;

namespace {

const auto t0 = ClientConnection::Clock::time_point{} + 1h;
constexpr std::string_view kGet = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n";

// Our end of a connected pair of sockets, and the client's end, to see what the client sees.
class Sockets {
 public:
  Sockets() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds_), 0); }
  ~Sockets() {
    ::close(fds_[0]);
    ::close(fds_[1]);
  }
  int ours() const { return fds_[0]; }
  // Whether the client has seen our end of the stream (without waiting).
  bool clientSeesTheEnd() const {
    char byte = 0;
    return ::recv(fds_[1], &byte, 1, MSG_DONTWAIT) == 0;
  }

 private:
  int fds_[2] = {-1, -1};
};

size_t requestsIn(const std::vector<RequestFramer::Event>& events) {
  return static_cast<size_t>(std::count_if(
      events.begin(), events.end(), [](const auto& event) { return event.kind == Kind::Request; }));
}

// The answer to the request in flight is queued and written.
void answerNow(ClientConnection& connection) {
  connection.queueAnswer([] { return 0; });
  connection.answered(true, t0);
}

}  // namespace

TEST(ClientConnection, ARequestBehindAPendingAnswerIsDroppedAndTheConnectionEndsAfterIt) {
  Sockets sockets;
  ClientConnection connection(sockets.ours(), FramerLimits{}, ConnectionTimes{}, t0);
  ASSERT_EQ(requestsIn(connection.read(kGet, t0)), 1u);
  connection.answerLater();

  ASSERT_EQ(requestsIn(connection.read(kGet, t0)), 1u);
  EXPECT_TRUE(connection.dropBehindPendingAnswer());
  EXPECT_FALSE(sockets.clientSeesTheEnd());

  answerNow(connection);
  EXPECT_TRUE(sockets.clientSeesTheEnd());
}

TEST(ClientConnection, NothingAfterADroppedRequestIsServed) {
  Sockets sockets;
  ClientConnection connection(sockets.ours(), FramerLimits{}, ConnectionTimes{}, t0);
  ASSERT_EQ(requestsIn(connection.read(kGet, t0)), 1u);
  connection.answerLater();
  ASSERT_EQ(requestsIn(connection.read(kGet, t0)), 1u);
  ASSERT_TRUE(connection.dropBehindPendingAnswer());

  // The pending answer is queued but not yet written, so the connection has not begun to
  // close: serving a request read now would hand the client its answer as the dropped one's.
  connection.queueAnswer([] { return 0; });
  EXPECT_EQ(connection.read(kGet, t0).size(), 0u);
}

TEST(ClientConnection, ARequestReadOnceThePendingAnswerIsQueuedIsServedAndTheConnectionStays) {
  Sockets sockets;
  ClientConnection connection(sockets.ours(), FramerLimits{}, ConnectionTimes{}, t0);
  ASSERT_EQ(requestsIn(connection.read(kGet, t0)), 1u);
  connection.answerLater();
  // The answer went out (and was written) before the reactor looked at the next request: the
  // connection must not end after an answer that has already left.
  answerNow(connection);

  ASSERT_EQ(requestsIn(connection.read(kGet, t0)), 1u);
  EXPECT_FALSE(connection.dropBehindPendingAnswer());
  answerNow(connection);
  EXPECT_FALSE(sockets.clientSeesTheEnd());
}
