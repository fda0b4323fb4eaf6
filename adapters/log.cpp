#include "adapters/log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>

namespace smsgw {
namespace {

thread_local std::string t_request_id;

// Appends `text` as the inside of a JSON string.
void appendEscaped(std::string_view text, spdlog::memory_buf_t& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out.append(std::string_view("\\\""));
        break;
      case '\\':
        out.append(std::string_view("\\\\"));
        break;
      case '\n':
        out.append(std::string_view("\\n"));
        break;
      case '\r':
        out.append(std::string_view("\\r"));
        break;
      case '\t':
        out.append(std::string_view("\\t"));
        break;
      default:
        if (byte < 0x20) {
          char escaped[] = {'\\', 'u', '0', '0', kHex[byte >> 4], kHex[byte & 15]};
          out.append(escaped, escaped + sizeof escaped);
        } else {
          out.push_back(c);
        }
    }
  }
}

// %* : the message, escaped for a JSON string.
class EscapedMessage final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    appendEscaped(std::string_view(msg.payload.data(), msg.payload.size()), dest);
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<EscapedMessage>();
  }
};

// %& : `"request_id":"…",` while the logging thread works for a request, else nothing.
class RequestIdField final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg&, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    if (t_request_id.empty()) return;
    dest.append(std::string_view("\"request_id\":\""));
    appendEscaped(t_request_id, dest);
    dest.append(std::string_view("\","));
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<RequestIdField>();
  }
};

}  // namespace

void initLogging(std::string_view process_name) {
  auto logger = spdlog::stderr_logger_mt(std::string(process_name));
  auto formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
  formatter->add_flag<EscapedMessage>('*').add_flag<RequestIdField>('&').set_pattern(
      R"({"time":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l","process":"%n",%&"message":"%*"})");
  logger->set_formatter(std::move(formatter));
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
}

RequestScope::RequestScope(std::string request_id) : previous_(std::move(t_request_id)) {
  t_request_id = std::move(request_id);
}

RequestScope::~RequestScope() {
  t_request_id = std::move(previous_);
}

const std::string& RequestScope::current() {
  return t_request_id;
}

}  // namespace smsgw
