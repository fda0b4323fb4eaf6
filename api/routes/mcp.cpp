// The MCP endpoint (docs/mcp.md): JSON-RPC 2.0 over MCP's Streamable HTTP transport, answered
// as plain JSON (no event stream; GET answers 405, which the transport allows). Stateless: no
// session id, each request stands alone. Authorized like any route, by an OAuth access token or
// an API key; a 401 tells the client where to get a token (request_pipeline.cpp). Each tool
// is a REST route called in-process as the same caller (mcp_tools.h).
#include <spdlog/spdlog.h>

#include <array>
#include <map>
#include <optional>

#include "api/http/error_body.h"
#include "api/routes/mcp_tools.h"
#include "api/routes/routes.h"
#include "domain/errors.h"
#include "services/accounts/price_table.h"

namespace smsgw::api {
namespace {

constexpr std::array<std::string_view, 3> kProtocolVersions = {"2025-11-25", "2025-06-18",
                                                               "2025-03-26"};

// JSON-RPC 2.0's error codes.
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;

struct RpcFailure {
  int code;
  std::string message;
};

ApiResponse rpcResult(const nlohmann::json& id, nlohmann::json result) {
  return ApiResponse::json(200, {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

ApiResponse rpcError(const nlohmann::json& id, const RpcFailure& failure, int status = 200) {
  return ApiResponse::json(status,
                           {{"jsonrpc", "2.0"},
                            {"id", id},
                            {"error", {{"code", failure.code}, {"message", failure.message}}}});
}

// A member that is a string, or "" (JSON-RPC messages come from anyone: no type is assumed).
std::string textMember(const nlohmann::json& object, const char* name) {
  auto it = object.find(name);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

nlohmann::json initializeResult(const nlohmann::json& params) {
  std::string asked = textMember(params, "protocolVersion");
  bool known = std::find(kProtocolVersions.begin(), kProtocolVersions.end(), asked) !=
               kProtocolVersions.end();
  return {
      {"protocolVersion", known ? asked : std::string(kProtocolVersions.front())},
      {"capabilities", {{"tools", {{"listChanged", false}}}}},
      {"serverInfo", {{"name", "smsgw"}, {"title", "Canadian SMS gateway"}, {"version", "1.0.0"}}},
      {"instructions",
       "Texts Canadian numbers from the account's own numbers. Money is in cents CAD. A "
       "TEST connection only simulates texts; a LIVE one sends real texts and charges the "
       "balance: tell the user what a send costs before making it. Canada's anti-spam law "
       "(CASL) applies: text only people who consented (check_consent)."}};
}

// The tool list with today's prices in the descriptions.
nlohmann::json toolList(App& app) {
  nlohmann::json prices = accounts::priceTable(app.db)["prices"];
  nlohmann::json tools = nlohmann::json::array();
  for (const McpTool& tool : mcpTools()) {
    std::string description = tool.description;
    for (const auto& price : prices) {
      std::string placeholder = "{" + price["code"].get<std::string>() + "}";
      for (size_t at; (at = description.find(placeholder)) != std::string::npos;)
        description.replace(at, placeholder.size(), std::to_string(price["cents"].get<int>()));
    }
    tools.push_back({{"name", tool.name},
                     {"title", tool.title},
                     {"description", description},
                     {"inputSchema", tool.input_schema},
                     {"annotations",
                      {{"readOnlyHint", tool.read_only},
                       {"destructiveHint", false},
                       {"openWorldHint", !tool.read_only}}}});
  }
  return {{"tools", tools}};
}

// The tools with the REST routes they call, resolved once at start-up from a copy of the
// routes added before the endpoint.
class ToolRoutes {
 public:
  explicit ToolRoutes(const Router& routes) : rest_(routes) {
    for (const McpTool& tool : mcpTools()) {
      auto route = std::find_if(rest_.routes().begin(), rest_.routes().end(), [&](const Route& r) {
        return r.method == tool.method && r.pattern == tool.route;
      });
      if (route == rest_.routes().end())
        throw std::logic_error("MCP tool " + tool.name + " names no route: " + tool.route);
      by_name_.emplace(tool.name, std::pair{&tool, &*route});
    }
  }
  // The tool of that name and its route, or nothing.
  std::optional<std::pair<const McpTool*, const Route*>> find(const std::string& name) const {
    auto it = by_name_.find(name);
    if (it == by_name_.end()) return std::nullopt;
    return it->second;
  }

 private:
  Router rest_;
  std::map<std::string, std::pair<const McpTool*, const Route*>> by_name_;
};

std::string queryText(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer() || value.is_boolean()) return value.dump();
  throw validationError("arguments", "must be strings or integers");
}

// The REST request a tool call makes: path parameters and, for a GET, the query from the
// arguments; otherwise the arguments are the JSON body.
ApiRequest restRequest(const ApiRequest& outer, const McpTool& tool, const Route& route,
                       nlohmann::json arguments) {
  ApiRequest inner;
  inner.method = tool.method;
  inner.route = route.pattern;
  inner.path = route.pattern;
  inner.caller = outer.caller;
  inner.language = outer.language;
  inner.client_ip = outer.client_ip;
  inner.on_slow_lane = outer.on_slow_lane;
  for (const auto& segment : route.segments) {
    if (segment.size() < 3 || segment.front() != '{') continue;
    std::string name = segment.substr(1, segment.size() - 2);
    if (name == tool.account_parameter) {
      inner.params[name] = outer.who().account_id;
      continue;
    }
    if (!arguments.contains(name) || !arguments[name].is_string())
      throw validationError(name, "is required");
    inner.params[name] = arguments[name];
    arguments.erase(name);
  }
  for (const auto& [placeholder, value] : inner.params) {
    size_t at = inner.path.find("{" + placeholder + "}");
    if (at != std::string::npos) inner.path.replace(at, placeholder.size() + 2, value);
  }
  if (arguments.contains("idempotency_key")) {
    inner.headers["idempotency-key"] = queryText(arguments["idempotency_key"]);
    arguments.erase("idempotency_key");
  }
  if (tool.method == "GET") {
    for (const auto& [name, value] : arguments.items()) inner.query[name] = queryText(value);
  } else {
    inner.body = std::move(arguments);
  }
  return inner;
}

nlohmann::json toolResult(const nlohmann::json& body, bool is_error) {
  nlohmann::json structured = body.is_object() ? body : nlohmann::json{{"result", body}};
  return {{"content", {{{"type", "text"}, {"text", structured.dump()}}}},
          {"structuredContent", structured},
          {"isError", is_error}};
}

nlohmann::json callTool(const ToolRoutes& tools, const ApiRequest& outer,
                        const nlohmann::json& params) {
  std::string name = textMember(params, "name");
  auto found = tools.find(name);
  if (!found) throw RpcFailure{kInvalidParams, "Unknown tool: " + name};
  auto [tool, route] = *found;
  nlohmann::json arguments =
      params.contains("arguments") ? params["arguments"] : nlohmann::json::object();
  if (!arguments.is_object()) throw RpcFailure{kInvalidParams, "arguments must be an object"};
  try {
    for (const auto& [field, _] : arguments.items()) {
      if (!tool->input_schema["properties"].contains(field))
        throw validationError(field, "is not an argument of " + name);
    }
    ApiRequest inner = restRequest(outer, *tool, *route, arguments);
    checkCallerMayUse(*inner.caller, route->options);
    ApiResponse answer = route->handler(inner);
    return toolResult(answer.has_body ? answer.body : nlohmann::json::object(),
                      answer.status >= 400);
  } catch (const ApiError& e) {
    return toolResult(errorBody(e.code(), outer.language, e.details()), true);
  } catch (const MoveToSlowLane&) {
    throw;
  } catch (const std::exception& e) {
    spdlog::error("MCP tool {} failed: {}", name, e.what());
    return toolResult(errorBody(ErrorCode::INTERNAL_ERROR, outer.language), true);
  }
}

ApiResponse serve(App& app, const ToolRoutes& tools, ApiRequest& req) {
  if (auto version = req.header("mcp-protocol-version");
      version && std::find(kProtocolVersions.begin(), kProtocolVersions.end(), *version) ==
                     kProtocolVersions.end())
    return rpcError(nullptr, {kInvalidRequest, "Unsupported MCP-Protocol-Version: " + *version},
                    400);
  // A page in the user's browser must not reach the endpoint (DNS rebinding; MCP transport
  // security): browsers send Origin, MCP clients do not.
  if (auto origin = req.header("origin"); origin && *origin != app.config.public_base_url)
    return rpcError(nullptr, {kInvalidRequest, "Origin not allowed"}, 403);
  const nlohmann::json& message = req.body;
  if (!message.is_object() || textMember(message, "jsonrpc") != "2.0" ||
      textMember(message, "method").empty())
    return rpcError(nullptr, {kInvalidRequest, "Expected one JSON-RPC 2.0 request object"}, 400);
  // Notifications and answers to server requests need no reply (Streamable HTTP: 202).
  if (!message.contains("id")) return {202, nullptr, false, {}, {}, {}};
  const nlohmann::json& id = message["id"];
  if (!id.is_string() && !id.is_number_integer())
    return rpcError(nullptr, {kInvalidRequest, "id must be a string or an integer"}, 400);
  std::string method = message["method"];
  nlohmann::json params = message.contains("params") ? message["params"] : nlohmann::json::object();
  if (!params.is_object()) return rpcError(id, {kInvalidParams, "params must be an object"});
  try {
    if (method == "initialize") return rpcResult(id, initializeResult(params));
    if (method == "ping") return rpcResult(id, nlohmann::json::object());
    if (method == "tools/list") return rpcResult(id, toolList(app));
    if (method == "tools/call") return rpcResult(id, callTool(tools, req, params));
  } catch (const RpcFailure& failure) {
    return rpcError(id, failure);
  }
  return rpcError(id, {kMethodNotFound, "Method not found: " + method});
}

}  // namespace

void addMcpRoutes(Router& router, App& app) {
  // The routes so far are the REST API the tools call; the endpoint itself is not among them.
  auto tools = std::make_shared<const ToolRoutes>(router);
  RouteOptions options;  // each tool checks its route's own permission
  options.allowed_before_payment = true;
  options.errors = ErrorDialect::McpJsonRpc;
  router.add("POST", "/mcp", onSlowLane(options),
             [&app, tools](ApiRequest& r) { return serve(app, *tools, r); });
}

}  // namespace smsgw::api
