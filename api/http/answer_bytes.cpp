#include "api/http/answer_bytes.h"

#include <pistache/http_defs.h>

namespace smsgw::api {

std::string answerBytes(const AnswerHead& head, std::string_view body) {
  std::string out = head.http_minor == 0 ? "HTTP/1.0 " : "HTTP/1.1 ";
  out += std::to_string(head.status);
  out += ' ';
  out += Pistache::Http::codeString(static_cast<Pistache::Http::Code>(head.status));
  out += "\r\n";
  for (const auto& [name, value] : head.headers) {
    out += name;
    out += ": ";
    out += value;
    out += "\r\n";
  }
  out += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  if (!head.without_body) out += body;
  return out;
}

}  // namespace smsgw::api
