#pragma once
// An answer as the bytes that go on the wire: status line, headers, Content-Length, body.
//
// Why not Pistache's ResponseWriter: its send() chains the write's promise through a
// continuation that resolves the promise it returns without the promise's lock, while then()
// takes that lock. A slow-lane answer is written from a slow-lane thread, which then attaches
// its own continuation to that promise while the reactor may be resolving it: the two threads
// race on the promise's list of continuations, and the API crashed (Schemathesis found it,
// tests/contract/schemathesis.sh). Peer::send's promise is resolved under its lock.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace smsgw::api {

struct AnswerHead {
  int http_minor = 1;  // HTTP/1.0 or HTTP/1.1, as the request was
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;  // Content-Length is added
  // An answer to HEAD: the GET's headers, Content-Length included, and no body (RFC 9110 9.3.2).
  bool without_body = false;
};

std::string answerBytes(const AnswerHead& head, std::string_view body);

}  // namespace smsgw::api
