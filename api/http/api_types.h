#pragma once
// What a route handler sees and returns; free of Pistache so routes stay light to compile.

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "domain/api_key.h"
#include "domain/locale.h"
#include "domain/permissions.h"

namespace smsgw::api {

// Who is calling: resolved from the API key by the HTTP edge before any route runs.
struct Caller {
  std::string account_id;
  std::string key_id;
  KeyMode mode = KeyMode::Test;
  Permissions permissions;
  std::string account_status;
  bool fenced = false;  // default-deny or allow/deny lists (KEY_FENCED rules)
  // default-deny or an ALLOW list: a recipient must be on the ALLOW list (ALLOW_LIST_BLOCKED)
  bool allow_list_required = false;
  std::optional<int> requests_per_second;  // the account's own rate; unset: the platform's

  bool live() const { return mode == KeyMode::Live; }
  bool operator==(const Caller&) const = default;
};

struct ApiRequest {
  std::string method;
  std::string path;
  std::map<std::string, std::string> params;   // from the route pattern, e.g. {id}
  std::map<std::string, std::string> query;    // percent-decoded
  std::map<std::string, std::string> headers;  // lower-cased names
  nlohmann::json body;                         // null when the request had none
  std::string raw_body;
  std::optional<Caller> caller;
  // Set when `caller` came from the edge's cache (caller_cache.h): the hash of the presented
  // key, until the route confirms the caller in its own transaction (confirmCaller).
  std::optional<std::string> unconfirmed_key_hash;
  Language language = Language::English;
  std::string client_ip;
  bool on_slow_lane = false;  // the route runs off the reactor threads (slow_lane.h)

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

  static ApiResponse json(int status, nlohmann::json body) {
    return {status, std::move(body), true, {}};
  }
  static ApiResponse noContent() { return {204, nullptr, false, {}}; }
};

}  // namespace smsgw::api
