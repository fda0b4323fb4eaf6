#include "tests/support/raw_http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace smsgw::testing {
namespace {

int portOf(const std::string& base_url) {
  auto colon = base_url.rfind(':');
  return std::stoi(base_url.substr(colon + 1));
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string RawResponse::header(const std::string& name) const {
  auto it = headers.find(lower(name));
  return it == headers.end() ? "" : it->second;
}

RawHttpConnection::RawHttpConnection(const std::string& base_url,
                                     const std::string& source_address) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::runtime_error("socket failed");
  if (!source_address.empty()) {
    sockaddr_in source{};
    source.sin_family = AF_INET;
    inet_pton(AF_INET, source_address.c_str(), &source.sin_addr);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&source), sizeof source) != 0)
      throw std::runtime_error("bind to " + source_address + " failed");
  }
  sockaddr_in server{};
  server.sin_family = AF_INET;
  server.sin_port = htons(static_cast<uint16_t>(portOf(base_url)));
  inet_pton(AF_INET, "127.0.0.1", &server.sin_addr);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&server), sizeof server) != 0)
    throw std::runtime_error("connect failed");
}

RawHttpConnection::~RawHttpConnection() {
  if (fd_ >= 0) ::close(fd_);
}

bool RawHttpConnection::send(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(sent));
  }
  return true;
}

// Reads what is there, waiting until the deadline for something: false when nothing came.
bool RawHttpConnection::fill(std::chrono::steady_clock::time_point deadline) {
  if (ended_) return false;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  pollfd waiting{fd_, POLLIN, 0};
  if (::poll(&waiting, 1, static_cast<int>(std::max<long long>(0, left.count()))) <= 0)
    return false;
  char chunk[65536];
  ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
  if (got <= 0) {
    ended_ = true;
    return false;
  }
  buffer_.append(chunk, static_cast<size_t>(got));
  return true;
}

std::optional<RawResponse> RawHttpConnection::read(std::chrono::milliseconds timeout,
                                                   bool to_head) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  size_t head_end;
  while ((head_end = buffer_.find("\r\n\r\n")) == std::string::npos) {
    if (!fill(deadline)) return std::nullopt;
  }
  RawResponse response;
  std::string head = buffer_.substr(0, head_end);
  response.status = std::stoi(head.substr(head.find(' ') + 1, 3));
  size_t line = head.find("\r\n");
  while (line != std::string::npos) {
    size_t next = head.find("\r\n", line + 2);
    std::string field =
        head.substr(line + 2, next == std::string::npos ? std::string::npos : next - line - 2);
    auto colon = field.find(':');
    if (colon != std::string::npos) {
      auto value = field.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      response.headers[lower(field.substr(0, colon))] = value;
    }
    line = next;
  }
  size_t length = response.headers.count("content-length") && !to_head
                      ? std::stoul(response.headers["content-length"])
                      : 0;
  while (buffer_.size() < head_end + 4 + length) {
    if (!fill(deadline)) return std::nullopt;
  }
  response.body = buffer_.substr(head_end + 4, length);
  buffer_.erase(0, head_end + 4 + length);
  response.json = nlohmann::json::parse(response.body, nullptr, false);
  return response;
}

bool RawHttpConnection::closesWithin(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!ended_ && std::chrono::steady_clock::now() < deadline) {
    buffer_.clear();
    fill(deadline);
  }
  return ended_;
}

std::string rawRequest(const std::string& method, const std::string& target,
                       const std::map<std::string, std::string>& headers, const std::string& body) {
  std::string out = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  bool has_length = false;
  for (const auto& [name, value] : headers) {
    out += name + ": " + value + "\r\n";
    has_length = has_length || lower(name) == "content-length";
  }
  if (!body.empty() && !has_length)
    out += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  return out + "\r\n" + body;
}

}  // namespace smsgw::testing
