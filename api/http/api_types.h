#pragma once
// What a route handler sees and returns; free of Pistache so routes stay light to compile.

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "domain/api_key.h"
#include "domain/caller.h"
#include "domain/locale.h"
#include "domain/permissions.h"

namespace smsgw::api {

using smsgw::Caller;  // domain/caller.h

// How a request's refusals are written: the spec's error body; OAuth's (RFC 6749 5.2) on the
// OAuth endpoints; JSON-RPC's parse error and a 401 that says where to get a token on the MCP
// endpoint. Set from the route as soon as one matches.
enum class ErrorDialect { Spec, OAuth, McpJsonRpc };

struct ApiRequest {
  std::string method;
  std::string path;
  std::map<std::string, std::string> params;  // from the route pattern, e.g. {id}
  std::string route;  // the pattern of the route that matched (metrics); empty when none did
  std::map<std::string, std::string> query;    // percent-decoded
  std::string raw_query;                       // as sent, after the '?'
  std::map<std::string, std::string> headers;  // lower-cased names
  nlohmann::json body;                         // null when the request had none
  std::map<std::string, std::string> form;     // a form body (RouteOptions::accepts_form)
  std::string raw_body;
  std::optional<Caller> caller;
  // Set when `caller` came from the edge's cache (caller_cache.h): the hash of the presented
  // key, until the route confirms the caller in its own transaction (accounts::confirmCaller).
  std::optional<std::string> unconfirmed_key_hash;
  Language language = Language::English;
  std::string client_ip;
  bool on_slow_lane = false;  // the route runs off the reactor threads (slow_lane.h)
  ErrorDialect error_dialect = ErrorDialect::Spec;

  const Caller& who() const { return *caller; }
  std::optional<std::string> header(const std::string& lower_name) const;
};

// Thrown by a route that finds, before it has changed anything, that it must wait on something
// slow after all (a send to a destination whose line type is not cached yet needs the
// carrier's lookup): the edge runs the request again from the start on the slow lane.
struct MoveToSlowLane {};

struct ApiResponse {
  int status = 200;
  nlohmann::json body;
  bool has_body = true;
  std::vector<std::pair<std::string, std::string>> headers;
  // A body that is not JSON (the OAuth consent page): sent as is when content_type is set.
  std::string text;
  std::string content_type;

  static ApiResponse json(int status, nlohmann::json body) {
    return {status, std::move(body), true, {}, {}, {}};
  }
  static ApiResponse noContent() { return {204, nullptr, false, {}, {}, {}}; }
  static ApiResponse html(int status, std::string page) {
    return {status, nullptr, true, {}, std::move(page), "text/html; charset=utf-8"};
  }
  // 303 See Other: the browser follows with a GET (the consent form's answer).
  static ApiResponse seeOther(const std::string& location) {
    return {303, nullptr, false, {{"Location", location}}, {}, {}};
  }
};

}  // namespace smsgw::api
