#include "tests/fuzz/edge_fuzz.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "api/http/edge_request.h"
#include "api/http/error_body.h"
#include "api/http/request_framer.h"
#include "api/http/router.h"

namespace smsgw::fuzz {
namespace {

using api::ApiRequest;
using api::ApiResponse;

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "edge fuzz: %s\n", why.c_str());
  std::abort();
}

// The shapes of the API's routes (the real table needs a database to build): literal and
// parameter segments, several methods on one path, an upload route.
const api::Router& router() {
  static const api::Router table = [] {
    api::Router r;
    auto none = [](ApiRequest&) { return ApiResponse::json(200, nullptr); };
    api::RouteOptions open;
    open.authenticated = false;
    api::RouteOptions upload;
    upload.accepts_csv = true;
    for (const char* method : {"POST", "GET"}) r.add(method, "/v1/messages", {}, none);
    r.add("GET", "/v1/messages/{id}", {}, none);
    r.add("POST", "/v1/accounts", open, none);
    r.add("GET", "/v1/accounts/me", {}, none);
    r.add("GET", "/v1/accounts/{id}", {}, none);
    r.add("PATCH", "/v1/accounts/{id}", {}, none);
    r.add("POST", "/v1/webhooks", {}, none);
    r.add("PATCH", "/v1/webhooks/{id}", {}, none);
    r.add("POST", "/v1/webhooks/dead-letters/{id}/replay", {}, none);
    r.add("DELETE", "/v1/compliance/consents/{phone}", {}, none);
    r.add("POST", "/v1/compliance/consent-batches", upload, none);
    r.add("GET", "/health", open, none);
    return r;
  }();
  return table;
}

// What the edge writes for a refusal, checked to be the spec's error body in valid UTF-8.
void checkRefusal(const ApiError& error, Language language) {
  const ErrorInfo& info = errorInfo(error.code());
  if (info.http_status < 400 || info.http_status > 599) fail("a refusal with a success status");
  std::string text;
  try {
    // Strict: a string that is not UTF-8 throws here, where the edge would write replacements.
    text = api::errorBody(error.code(), language, error.details()).dump();
  } catch (const std::exception& e) {
    fail(std::string("an error body that cannot be written: ") + e.what());
  }
  auto body = nlohmann::json::parse(text);
  for (const char* field : {"code", "message", "messageEn", "messageFr"}) {
    if (!body[field].is_string() || body[field].get<std::string>().empty())
      fail(std::string("an error body without ") + field);
  }
  if (body["statusCode"] != info.http_status) fail("statusCode differs from the status");
}

// One framed request as the edge reads it, up to the route.
void serve(api::FramedRequest framed) {
  api::EdgeRequest edge = api::readEdgeRequest(std::move(framed), "127.0.0.1");
  ApiRequest& req = edge.request;
  if (edge.request_id.empty() || edge.request_id.size() > 200) fail("no usable request id");
  try {
    if (edge.refusal) throw *edge.refusal;
    auto match = router().match(req.method, req.path);
    if (!match.route) {
      throw ApiError(
          match.allowed_methods.empty() ? ErrorCode::NOT_FOUND : ErrorCode::METHOD_NOT_ALLOWED,
          {{"route", req.method + " " + req.path}});
    }
    req.params = std::move(match.params);
    api::readBody(req, size_t{1024} * 1024,
                  {match.route->options.accepts_csv, match.route->options.accepts_form});
    // What a route does with what it was given: read it and write it back.
    std::string echoed = nlohmann::json{
        {"params", req.params},
        {"query", req.query},
        {"body", req.body},
        {"path", req.path}}.dump();
    if (echoed.empty()) fail("nothing written");
  } catch (const ApiError& error) {
    checkRefusal(error, req.language);
  }
}

}  // namespace

int runEdgeOnce(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  api::FramerLimits limits;
  limits.max_body_bytes = 4096;  // small, so the fuzzer meets the limit
  limits.max_header_bytes = 2048;
  api::RequestFramer framer(limits);
  // The first byte cuts the rest into up to three pieces, as TCP might deliver them.
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  size_t first = bytes.empty() ? 0 : data[0] % (bytes.size() + 1);
  size_t second = first + (bytes.size() - first) / 2;
  int answers = 0;
  auto now = api::RequestFramer::Clock::now();
  for (auto piece :
       {bytes.substr(0, first), bytes.substr(first, second - first), bytes.substr(second)}) {
    try {
      for (auto& event : framer.feed(piece, now)) {
        answers++;
        if (event.kind == api::RequestFramer::Event::Kind::Refusal) {
          checkRefusal(ApiError(event.refusal), Language::English);
        } else if (event.kind == api::RequestFramer::Event::Kind::Request) {
          serve(std::move(event.request));
        }
      }
    } catch (const std::exception& e) {
      fail(std::string("an exception escaped the edge: ") + e.what());
    }
  }
  if (framer.overdue(now + std::chrono::hours(1)) && !framer.midRequest())
    fail("overdue without a request begun");
  return answers;
}

std::vector<std::string> seedRequests() {
  std::vector<std::string> seeds;
  for (const auto& entry : std::filesystem::directory_iterator(SMSGW_FUZZ_SEEDS_DIR)) {
    std::ifstream file(entry.path(), std::ios::binary);
    seeds.emplace_back(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  }
  std::sort(seeds.begin(), seeds.end());  // the same order on every machine
  return seeds;
}

}  // namespace smsgw::fuzz
