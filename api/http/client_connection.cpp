#include "api/http/client_connection.h"

#include <sys/socket.h>

namespace smsgw::api {

ClientConnection::ClientConnection(int fd, FramerLimits limits, ConnectionTimes times,
                                   Clock::time_point now)
    : fd_(fd), times_(times), framer_(limits), idle_since_(now) {}

std::vector<RequestFramer::Event> ClientConnection::read(std::string_view bytes,
                                                         Clock::time_point now) {
  std::lock_guard lock(mutex_);
  // Lingering, or behind a dropped request: what the client still sends is dropped.
  if (closing_ || disconnected_ || close_after_answer_) return {};
  auto events = framer_.feed(bytes, now);
  for (const auto& event : events) {
    if (event.kind == RequestFramer::Event::Kind::Request) unanswered_++;
  }
  return events;
}

int ClientConnection::httpMinor() const {
  std::lock_guard lock(mutex_);
  return framer_.httpMinor();
}

void ClientConnection::answerLater() {
  std::lock_guard lock(mutex_);
  answer_pending_ = true;
}

bool ClientConnection::dropBehindPendingAnswer() {
  std::lock_guard lock(mutex_);
  if (!answer_pending_) return false;
  close_after_answer_ = true;
  return true;
}

void ClientConnection::answered(bool keep_alive, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (unanswered_ > 0) unanswered_--;
  idle_since_ = now;
  if (!keep_alive || close_after_answer_) closeLocked(now);
}

void ClientConnection::close(Clock::time_point now) {
  std::lock_guard lock(mutex_);
  closeLocked(now);
}

void ClientConnection::closeLocked(Clock::time_point now) {
  if (closing_ || disconnected_) return;
  closing_ = true;
  linger_until_ = now + times_.linger;
  ::shutdown(fd_, SHUT_WR);
}

void ClientConnection::cutLocked() {
  if (cut_ || disconnected_) return;
  cut_ = true;
  closing_ = true;
  // The reactor then reads the end of the stream and lets Pistache drop the peer.
  ::shutdown(fd_, SHUT_RDWR);
}

void ClientConnection::disconnected() {
  std::lock_guard lock(mutex_);
  disconnected_ = true;
}

bool ClientConnection::isDisconnected() const {
  std::lock_guard lock(mutex_);
  return disconnected_;
}

bool ClientConnection::sweep(Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (disconnected_) return true;
  bool lingered = closing_ && now >= linger_until_;
  bool stalled = !closing_ && framer_.overdue(now);  // dropped without an answer
  bool idle = !closing_ && unanswered_ == 0 && !framer_.midRequest() &&
              now - idle_since_ > times_.keep_alive;
  if (lingered || stalled || idle) cutLocked();
  return false;
}

ConnectionSweeper::ConnectionSweeper(std::chrono::milliseconds period)
    : period_(period), thread_([this] { run(); }) {}

ConnectionSweeper::~ConnectionSweeper() {
  stop();
}

void ConnectionSweeper::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ConnectionSweeper::add(const std::shared_ptr<ClientConnection>& connection) {
  std::lock_guard lock(mutex_);
  connections_.insert(connection);
}

void ConnectionSweeper::remove(const std::shared_ptr<ClientConnection>& connection) {
  std::lock_guard lock(mutex_);
  connections_.erase(connection);
}

void ConnectionSweeper::run() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, period_, [this] { return stopping_; })) {
    auto now = ClientConnection::Clock::now();
    for (auto it = connections_.begin(); it != connections_.end();) {
      it = (*it)->sweep(now) ? connections_.erase(it) : std::next(it);
    }
  }
}

}  // namespace smsgw::api
