#pragma once
// One client connection as the edge tracks it beside Pistache's peer: its framer, the answers
// it still owes, and how it ends. Pistache 0.0.5 never closes a connection after a response
// (an HTTP/1.0 client such as ab waits forever), and its timeouts measure from the wrong moment
// once requests are read here; so the edge closes connections itself:
// - after the answer to a request that does not keep the connection alive, or to a refusal;
// - when a request stalls past its header or body time (slowloris), or the connection idles
//   past the keep-alive time.
// Closing lingers: shut our sending side once the answer is written (the client sees its end),
// read and drop what the client still sends, and cut the connection after a short grace.
// Cutting at once would make the kernel reset a connection that still has unread input, and
// the client could lose the answer (a 413 refusing a body it is still sending).
//
// Thread-safe: the reactor thread feeds it, slow-lane threads finish answers, the sweeper
// checks the clock. The socket is used under the mutex and only until Pistache reports the
// disconnection, after which the descriptor number may belong to another connection.

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_set>
#include <vector>

#include "api/http/request_framer.h"

namespace smsgw::api {

struct ConnectionTimes {
  std::chrono::milliseconds keep_alive{75'000};  // idle between requests
  std::chrono::milliseconds linger{2'000};       // after our side is shut
};

class ClientConnection {
 public:
  using Clock = RequestFramer::Clock;

  ClientConnection(int fd, FramerLimits limits, ConnectionTimes times, Clock::time_point now);

  // The reactor thread's bytes, framed. Nothing once the connection is closing, or once a
  // request was dropped behind a pending answer (serving a later one would hand the client its
  // answer as the dropped one's).
  std::vector<RequestFramer::Event> read(std::string_view bytes, Clock::time_point now);
  int httpMinor() const;

  // A request is answered off the reactor: until its answer is queued for writing, anything
  // pipelined behind it is dropped and the connection closes after that answer (RFC 9112
  // 9.3.2: the client sends again what was not answered). Answers leave in the order they are
  // queued, so the next request may be read as soon as this one's answer is.
  void answerLater();
  // Whether a request just read must be dropped because an answer is still pending; if so, the
  // connection ends after that answer. One step under the lock: asked apart, the answer could
  // leave between the question and the decision to close, and the connection would then stay
  // open with the client waiting for an answer that never comes.
  bool dropBehindPendingAnswer();
  // Queues an answer for writing: `write` runs under the connection's lock, so no request read
  // meanwhile can take the answer for one still pending (and be dropped for it).
  template <typename Write>
  auto queueAnswer(Write write) {
    std::lock_guard lock(mutex_);
    auto queued = write();
    answer_pending_ = false;
    return queued;
  }
  // An answer was written (or could not be): the connection now idles, or closes when the
  // request did not keep it alive or more requests came while it was pending.
  void answered(bool keep_alive, Clock::time_point now);
  // Shuts our sending side and starts the grace.
  void close(Clock::time_point now);
  // Pistache saw the end of the connection: the descriptor is no longer ours.
  void disconnected();
  bool isDisconnected() const;

  // The sweeper's look: cuts the connection when a request stalled, it idled too long, or its
  // grace ran out. True when the connection is gone and can be forgotten.
  bool sweep(Clock::time_point now);

 private:
  void closeLocked(Clock::time_point now);
  void cutLocked();

  mutable std::mutex mutex_;
  const int fd_;
  const ConnectionTimes times_;
  RequestFramer framer_;
  bool disconnected_ = false;
  bool closing_ = false;
  bool cut_ = false;
  bool answer_pending_ = false;
  bool close_after_answer_ = false;
  int unanswered_ = 0;
  Clock::time_point idle_since_;
  Clock::time_point linger_until_{};
};

// Every open connection, swept every `period` on a thread of its own until stop(). Thread-safe.
class ConnectionSweeper {
 public:
  explicit ConnectionSweeper(std::chrono::milliseconds period);
  ~ConnectionSweeper();
  void stop();
  void add(const std::shared_ptr<ClientConnection>& connection);
  void remove(const std::shared_ptr<ClientConnection>& connection);

 private:
  void run();

  std::chrono::milliseconds period_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::unordered_set<std::shared_ptr<ClientConnection>> connections_;
  std::thread thread_;
};

}  // namespace smsgw::api
