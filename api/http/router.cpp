#include "api/http/router.h"

#include <algorithm>
#include <cctype>

#include "domain/errors.h"

namespace smsgw::api {
namespace {

std::vector<std::string> splitPath(const std::string& path) {
  std::vector<std::string> out;
  size_t pos = 1;
  while (pos <= path.size()) {
    size_t slash = path.find('/', pos);
    if (slash == std::string::npos) slash = path.size();
    out.push_back(path.substr(pos, slash - pos));
    pos = slash + 1;
  }
  if (!out.empty() && out.back().empty()) out.pop_back();  // tolerate one trailing slash
  return out;
}

bool isParam(const std::string& segment) {
  return segment.size() > 2 && segment.front() == '{';
}

}  // namespace

std::string percentDecode(const std::string& in) {
  std::string out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '%' && i + 2 < in.size() && std::isxdigit(static_cast<unsigned char>(in[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(in[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(in.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(in[i]);
    }
  }
  return out;
}

std::optional<std::string> ApiRequest::header(const std::string& lower_name) const {
  auto it = headers.find(lower_name);
  if (it == headers.end()) return std::nullopt;
  return it->second;
}

void Router::add(std::string method, std::string pattern, RouteOptions options,
                 RouteHandler handler) {
  auto segments = splitPath(pattern);
  routes_.push_back({std::move(method), std::move(pattern), std::move(segments), std::move(options),
                     std::move(handler)});
}

namespace {

// How well a route's pattern fits the path: the number of literal segments matched, or -1.
int fit(const Route& route, const std::vector<std::string>& segments,
        std::map<std::string, std::string>& params) {
  if (route.segments.size() != segments.size()) return -1;
  int literals = 0;
  for (size_t i = 0; i < segments.size(); ++i) {
    if (isParam(route.segments[i])) {
      if (segments[i].empty()) return -1;
      params[route.segments[i].substr(1, route.segments[i].size() - 2)] =
          percentDecode(segments[i]);
    } else if (route.segments[i] == segments[i]) {
      literals++;
    } else {
      return -1;
    }
  }
  return literals;
}

}  // namespace

Router::Match Router::match(const std::string& method, const std::string& path) const {
  auto segments = splitPath(path);
  Match best;
  int best_literals = -1;
  for (const auto& route : routes_) {
    std::map<std::string, std::string> params;
    int literals = fit(route, segments, params);
    if (literals < 0) continue;
    if (route.method != method) {
      if (std::find(best.allowed_methods.begin(), best.allowed_methods.end(), route.method) ==
          best.allowed_methods.end())
        best.allowed_methods.push_back(route.method);
      continue;
    }
    // Literal segments win over parameters: /v1/accounts/me before /v1/accounts/{id}.
    if (literals > best_literals) {
      best.route = &route;
      best_literals = literals;
      best.params = std::move(params);
    }
  }
  if (best.route) {
    best.allowed_methods.clear();
    return best;
  }
  // HEAD is GET without the body (RFC 9110 9.3.2): every GET route answers it.
  if (method == "HEAD") {
    Match get = match("GET", path);
    if (get.route) return get;
  }
  if (std::find(best.allowed_methods.begin(), best.allowed_methods.end(), "GET") !=
      best.allowed_methods.end())
    best.allowed_methods.push_back("HEAD");
  return best;
}

RouteOptions onSlowLane(RouteOptions options) {
  options.slow = true;
  return options;
}

RouteOptions needs(const char* permission) {
  RouteOptions options;
  options.permission = PermissionRequirement::parse(permission);
  return options;
}

void checkCallerMayUse(const Caller& caller, const RouteOptions& options) {
  if (isHeld(caller.account_status) && !options.handles_suspended_accounts) {
    throw ApiError(
        ErrorCode::FORBIDDEN,
        {{"reason", caller.account_status == AccountStatus::Suspended ? "account_suspended"
                                                                      : "account_closed"}});
  }
  if (caller.live() && caller.account_status == AccountStatus::PendingPayment &&
      !options.allowed_before_payment) {
    throw ApiError(ErrorCode::PAYMENT_REQUIRED);
  }
  if (options.permission && !options.permission->satisfiedBy(caller.permissions)) {
    std::string letters;
    for (char c : options.permission->any_of_letters) {
      if (!letters.empty()) letters += " or ";
      letters += options.permission->resource + ":" + c;
    }
    throw ApiError(ErrorCode::FORBIDDEN, {{"required_permission", letters}});
  }
}

}  // namespace smsgw::api
