#include "api/http/request_framer.h"

#include <http_parser.h>
#include <strings.h>

#include <algorithm>
#include <cctype>

namespace smsgw::api {
namespace {

// RFC 9110 tchar: what a header name is made of.
bool isTokenChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

}  // namespace

struct RequestFramer::State {
  FramerLimits limits;
  http_parser parser{};
  http_parser_settings settings{};
  Clock::time_point now{};

  bool closed = false;
  // The request being read.
  bool begun = false;
  bool headers_done = false;
  Clock::time_point begun_at{};
  Clock::time_point headers_done_at{};
  size_t header_bytes = 0;
  bool last_was_value = false;
  FramedRequest request;
  std::optional<ErrorCode> refusal;  // decided by a callback, which then stops the parser
  bool complete = false;
  bool send_continue = false;

  explicit State(FramerLimits l) : limits(l) {
    http_parser_init(&parser, HTTP_REQUEST);
    parser.data = this;
    http_parser_settings_init(&settings);
    settings.on_message_begin = [](http_parser* p) { return self(p).onBegin(); };
    settings.on_url = [](http_parser* p, const char* at, size_t n) {
      return self(p).onHeaderBytes(n, [&](State& s) { s.request.target.append(at, n); });
    };
    settings.on_header_field = [](http_parser* p, const char* at, size_t n) {
      return self(p).onHeaderBytes(n, [&](State& s) {
        if (s.last_was_value || s.request.headers.empty()) s.request.headers.emplace_back();
        s.request.headers.back().first.append(at, n);
        s.last_was_value = false;
      });
    };
    settings.on_header_value = [](http_parser* p, const char* at, size_t n) {
      return self(p).onHeaderBytes(n, [&](State& s) {
        s.request.headers.back().second.append(at, n);
        s.last_was_value = true;
      });
    };
    settings.on_headers_complete = [](http_parser* p) { return self(p).onHeadersComplete(); };
    settings.on_body = [](http_parser* p, const char* at, size_t n) {
      return self(p).onBody(at, n);
    };
    settings.on_message_complete = [](http_parser* p) {
      State& s = self(p);
      s.complete = true;
      s.request.keep_alive = http_should_keep_alive(p) != 0 && !p->upgrade;
      http_parser_pause(p, 1);  // hand this request out before reading the next one
      return 0;
    };
  }

  static State& self(http_parser* p) { return *static_cast<State*>(p->data); }

  int onBegin() {
    begun = true;
    headers_done = false;
    begun_at = now;
    header_bytes = 0;
    last_was_value = false;
    request = FramedRequest{};
    return 0;
  }

  template <typename Append>
  int onHeaderBytes(size_t n, Append append) {
    header_bytes += n;
    if (header_bytes > limits.max_header_bytes) return refuse(ErrorCode::FST_ERR_HEADERS_TOO_LARGE);
    append(*this);
    return 0;
  }

  int onHeadersComplete() {
    headers_done = true;
    headers_done_at = now;
    request.method = http_method_str(static_cast<http_method>(parser.method));
    request.http_minor = parser.http_minor;
    if (parser.http_major != 1 || parser.http_minor > 1)
      return refuse(ErrorCode::FST_ERR_BAD_REQUEST);
    // Debian builds http-parser without its strict mode, which lets a space into a header name
    // and a folded line into a value: the names must be tokens and the values one line.
    for (const auto& [name, value] : request.headers) {
      if (name.empty() || !std::all_of(name.begin(), name.end(), isTokenChar) ||
          value.find_first_of("\r\n") != std::string::npos)
        return refuse(ErrorCode::FST_ERR_BAD_REQUEST);
    }
    bool declares_length = (parser.flags & F_CONTENTLENGTH) != 0;
    if (declares_length && parser.content_length > limits.max_body_bytes)
      return refuse(ErrorCode::FST_ERR_CTP_BODY_TOO_LARGE);
    bool has_body = (declares_length && parser.content_length > 0) || (parser.flags & F_CHUNKED);
    send_continue = has_body && expectsContinue();
    return 0;
  }

  bool expectsContinue() const {
    for (const auto& [name, value] : request.headers) {
      if (strcasecmp(name.c_str(), "expect") == 0 && strcasecmp(value.c_str(), "100-continue") == 0)
        return true;
    }
    return false;
  }

  int onBody(const char* at, size_t n) {
    if (request.body.size() + n > limits.max_body_bytes)
      return refuse(ErrorCode::FST_ERR_CTP_BODY_TOO_LARGE);
    request.body.append(at, n);
    return 0;
  }

  int refuse(ErrorCode code) {
    refusal = code;
    return -1;  // stops http_parser_execute with a callback error
  }

  Event refusalEvent(ErrorCode code) {
    closed = true;
    Event event;
    event.kind = Event::Kind::Refusal;
    event.refusal = code;
    return event;
  }
};

RequestFramer::RequestFramer(FramerLimits limits) : state_(std::make_unique<State>(limits)) {}
RequestFramer::~RequestFramer() = default;

std::vector<RequestFramer::Event> RequestFramer::feed(std::string_view bytes,
                                                      Clock::time_point now) {
  State& s = *state_;
  std::vector<Event> events;
  s.now = now;
  while (!s.closed && !bytes.empty()) {
    size_t used = http_parser_execute(&s.parser, &s.settings, bytes.data(), bytes.size());
    auto error = HTTP_PARSER_ERRNO(&s.parser);
    if (s.send_continue) {
      s.send_continue = false;
      events.push_back({Event::Kind::Continue, {}, ErrorCode::FST_ERR_BAD_REQUEST});
    }
    if (error == HPE_PAUSED && s.complete) {
      s.complete = false;
      s.begun = false;
      bool keep_alive = s.request.keep_alive;
      events.push_back(
          {Event::Kind::Request, std::move(s.request), ErrorCode::FST_ERR_BAD_REQUEST});
      s.request = FramedRequest{};
      if (!keep_alive) {
        s.closed = true;  // answer it, then close: nothing after it is read
        break;
      }
      http_parser_pause(&s.parser, 0);
      bytes.remove_prefix(used);
      continue;
    }
    if (error != HPE_OK) {
      ErrorCode code =
          s.refusal.value_or(error == HPE_HEADER_OVERFLOW ? ErrorCode::FST_ERR_HEADERS_TOO_LARGE
                                                          : ErrorCode::FST_ERR_BAD_REQUEST);
      events.push_back(s.refusalEvent(code));
      break;
    }
    bytes.remove_prefix(used);
  }
  return events;
}

std::optional<ErrorCode> RequestFramer::overdue(Clock::time_point now) const {
  const State& s = *state_;
  if (s.closed || !s.begun) return std::nullopt;
  bool late = s.headers_done ? now - s.headers_done_at > s.limits.body_timeout
                             : now - s.begun_at > s.limits.header_timeout;
  if (!late) return std::nullopt;
  return ErrorCode::FST_ERR_REQUEST_TIMEOUT;
}

bool RequestFramer::closed() const {
  return state_->closed;
}

bool RequestFramer::midRequest() const {
  return !state_->closed && state_->begun;
}

int RequestFramer::httpMinor() const {
  const State& s = *state_;
  return s.parser.http_major == 1 && s.parser.http_minor == 0 ? 0 : 1;
}

}  // namespace smsgw::api
