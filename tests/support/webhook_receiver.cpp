#include "tests/support/webhook_receiver.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace smsgw::testing {

struct WebhookReceiver::Impl {
  int listener = -1;
  int port = 0;
  std::atomic<bool> stopping{false};
  mutable std::mutex mutex;
  std::condition_variable arrived;
  std::vector<ReceivedRequest> requests;
  ReceiverAnswer answer = ReceiverAnswer::Ok;
  int status = 500;
  std::string document;
  std::string cache_control;
  std::thread acceptor;
  std::vector<std::thread> connections;

  void acceptLoop();
  void serve(int fd);
  bool serveOne(int fd, std::string& buffer);
};

namespace {

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Reads until `done` says the request is complete, the peer leaves or the receiver stops.
bool readMore(int fd, std::string& buffer, const std::atomic<bool>& stopping) {
  char chunk[4096];
  while (!stopping) {
    pollfd p{fd, POLLIN, 0};
    int ready = poll(&p, 1, 100);
    if (ready < 0) return false;
    if (ready == 0) continue;
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n <= 0) return false;
    buffer.append(chunk, static_cast<size_t>(n));
    return true;
  }
  return false;
}

void writeAll(int fd, const std::string& text) {
  size_t sent = 0;
  while (sent < text.size()) {
    ssize_t n = send(fd, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<size_t>(n);
  }
}

}  // namespace

void WebhookReceiver::Impl::serve(int fd) {
  std::string buffer;
  while (serveOne(fd, buffer)) {
  }
  close(fd);
}

// One request from `buffer` and what arrives on `fd`; true when the connection stays open for
// the next (a 200 to a client that did not ask to close, as a customer's server would keep it).
bool WebhookReceiver::Impl::serveOne(int fd, std::string& buffer) {
  size_t header_end;
  while ((header_end = buffer.find("\r\n\r\n")) == std::string::npos)
    if (!readMore(fd, buffer, stopping)) return false;
  ReceivedRequest request;
  size_t line_end = buffer.find("\r\n");
  for (size_t at = line_end + 2; at < header_end;) {
    size_t end = buffer.find("\r\n", at);
    std::string line = buffer.substr(at, end - at);
    size_t colon = line.find(':');
    if (colon != std::string::npos) {
      size_t value = line.find_first_not_of(' ', colon + 1);
      request.headers[lower(line.substr(0, colon))] =
          value == std::string::npos ? "" : line.substr(value);
    }
    at = end + 2;
  }
  size_t length =
      request.headers.count("content-length") ? std::stoul(request.headers["content-length"]) : 0;
  if (lower(request.headers["expect"]) == "100-continue")
    writeAll(fd, "HTTP/1.1 100 Continue\r\n\r\n");
  while (buffer.size() < header_end + 4 + length)
    if (!readMore(fd, buffer, stopping)) return false;
  request.body = buffer.substr(header_end + 4, length);
  buffer.erase(0, header_end + 4 + length);
  bool client_closes = lower(request.headers["connection"]) == "close";
  request.received_at = std::chrono::system_clock::now();

  ReceiverAnswer how;
  int code;
  std::string served, caching;
  {
    std::lock_guard lock(mutex);
    requests.push_back(std::move(request));
    how = answer;
    code = status;
    served = document;
    caching = cache_control;
  }
  arrived.notify_all();
  switch (how) {
    case ReceiverAnswer::Ok:
      if (!client_closes) {
        writeAll(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
        return true;
      }
      writeAll(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
      break;
    case ReceiverAnswer::Status:
      writeAll(fd, "HTTP/1.1 " + std::to_string(code) +
                       " Status\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      break;
    case ReceiverAnswer::Redirect:
      writeAll(fd,
               "HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Length: 0\r\nConnection: "
               "close\r\n\r\n");
      break;
    case ReceiverAnswer::Hang: {
      std::string ignored;
      while (readMore(fd, ignored, stopping)) {
      }
      break;
    }
    case ReceiverAnswer::Close:
      break;
    case ReceiverAnswer::Document:
      writeAll(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: " +
                       caching + "\r\nContent-Length: " + std::to_string(served.size()) +
                       "\r\nConnection: close\r\n\r\n" + served);
      break;
  }
  return false;
}

void WebhookReceiver::Impl::acceptLoop() {
  while (!stopping) {
    pollfd p{listener, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    int fd = accept(listener, nullptr, nullptr);
    if (fd < 0) continue;
    std::lock_guard lock(mutex);
    connections.emplace_back([this, fd] { serve(fd); });
  }
}

WebhookReceiver::WebhookReceiver() : impl_(std::make_unique<Impl>()) {
  impl_->listener = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(impl_->listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  if (bind(impl_->listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      listen(impl_->listener, 128) != 0)
    throw std::runtime_error("webhook receiver: cannot listen");
  socklen_t size = sizeof address;
  getsockname(impl_->listener, reinterpret_cast<sockaddr*>(&address), &size);
  impl_->port = ntohs(address.sin_port);
  impl_->acceptor = std::thread([this] { impl_->acceptLoop(); });
}

WebhookReceiver::~WebhookReceiver() {
  impl_->stopping = true;
  impl_->acceptor.join();
  std::vector<std::thread> connections;
  {
    std::lock_guard lock(impl_->mutex);
    connections.swap(impl_->connections);
  }
  for (auto& connection : connections) connection.join();
  close(impl_->listener);
}

std::string WebhookReceiver::url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->port) + "/hook";
}

int WebhookReceiver::port() const {
  return impl_->port;
}

void WebhookReceiver::answerWith(ReceiverAnswer answer, int status) {
  std::lock_guard lock(impl_->mutex);
  impl_->answer = answer;
  impl_->status = status;
}

void WebhookReceiver::serveDocument(std::string body, std::string cache_control) {
  std::lock_guard lock(impl_->mutex);
  impl_->answer = ReceiverAnswer::Document;
  impl_->document = std::move(body);
  impl_->cache_control = std::move(cache_control);
}

std::vector<ReceivedRequest> WebhookReceiver::waitFor(size_t count, std::chrono::seconds timeout) {
  std::unique_lock lock(impl_->mutex);
  impl_->arrived.wait_for(lock, timeout, [&] { return impl_->requests.size() >= count; });
  return impl_->requests;
}

size_t WebhookReceiver::connectionsAccepted() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->connections.size();
}

size_t WebhookReceiver::received() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->requests.size();
}

}  // namespace smsgw::testing
