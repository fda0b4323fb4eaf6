#include "adapters/log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <nlohmann/json.hpp>

namespace smsgw {
namespace {

thread_local std::string t_request_id;

// Appends `text` as a JSON string, quotes included (bytes that are not UTF-8 become U+FFFD, so
// a line stays one JSON object whatever a message holds).
void appendJsonString(std::string_view text, spdlog::memory_buf_t& out) {
  std::string quoted = nlohmann::json(std::string(text))
                           .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  out.append(quoted.data(), quoted.data() + quoted.size());
}

// %* : the message, as a JSON string.
class EscapedMessage final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    appendJsonString(std::string_view(msg.payload.data(), msg.payload.size()), dest);
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
    dest.append(std::string_view("\"request_id\":"));
    appendJsonString(t_request_id, dest);
    dest.push_back(',');
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
      R"({"time":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l","process":"%n",%&"message":%*})");
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
