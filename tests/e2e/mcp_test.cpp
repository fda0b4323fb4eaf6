// The MCP endpoint (docs/mcp.md): JSON-RPC over Streamable HTTP, its tools calling the REST
// routes as the same caller, with the same refusals.
#include <gtest/gtest.h>

#include "tests/support/accounts.h"
#include "tests/support/oauth_flow.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

class McpSession {
 public:
  McpSession(HttpTestClient& api, std::string key) : api_(api), key_(std::move(key)) {}

  Reply rpc(const std::string& method, nlohmann::json params = nlohmann::json::object(),
            Headers headers = {}) {
    headers.emplace_back("Accept", "application/json, text/event-stream");
    return api_.call("POST", "/mcp", bearer(key_, headers),
                     {{"jsonrpc", "2.0"}, {"id", ++id_}, {"method", method}, {"params", params}});
  }
  // A tool's result: {content, structuredContent, isError}.
  nlohmann::json call(const std::string& tool, nlohmann::json arguments) {
    Reply reply = rpc("tools/call", {{"name", tool}, {"arguments", arguments}});
    EXPECT_EQ(reply.status, 200) << reply.raw_body;
    return reply.body.value("result", nlohmann::json());
  }

 private:
  HttpTestClient& api_;
  std::string key_;
  int id_ = 0;
};

const std::string kFrom = "+14165550100";
const std::string kTo = "+14162220123";

}  // namespace

TEST(Mcp, InitializeAndListTheToolsWithWhatTheyCost) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  McpSession mcp(api, owner.test_key);
  Reply init = mcp.rpc("initialize", {{"protocolVersion", "2025-06-18"},
                                      {"capabilities", nlohmann::json::object()},
                                      {"clientInfo", {{"name", "test"}, {"version", "1"}}}});
  ASSERT_EQ(init.status, 200) << init.raw_body;
  EXPECT_EQ(init.body["result"]["protocolVersion"], "2025-06-18");
  EXPECT_TRUE(init.body["result"]["capabilities"].contains("tools"));
  Reply tools = mcp.rpc("tools/list");
  std::vector<std::string> names;
  for (const auto& tool : tools.body["result"]["tools"]) {
    names.push_back(tool["name"]);
    EXPECT_EQ(tool["inputSchema"]["type"], "object") << tool["name"];
    EXPECT_TRUE(tool["inputSchema"]["properties"].is_object()) << tool["name"];
  }
  EXPECT_EQ(names, (std::vector<std::string>{
                       "send_sms", "get_message", "list_messages", "check_consent",
                       "record_consent", "record_opt_out", "search_numbers", "list_my_numbers",
                       "get_balance", "list_ledger", "start_verification", "check_verification"}));
  std::string send = tools.body["result"]["tools"][0]["description"];
  EXPECT_NE(send.find("charged 2 cents CAD"), std::string::npos) << send;
  // A notification gets no answer; GET offers no stream.
  std::string note = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
  EXPECT_EQ(api.call("POST", "/mcp", bearer(owner.test_key, {{"Content-Type", "application/json"}}),
                     nullptr, &note)
                .status,
            202);
  EXPECT_EQ(api.call("GET", "/mcp", bearer(owner.test_key)).status, 405);
  EXPECT_EQ(mcp.rpc("resources/list").body["error"]["code"], -32601);
  EXPECT_EQ(mcp.rpc("tools/call", {{"name", "launch_rockets"}}).body["error"]["code"], -32602);
}

TEST(Mcp, ToolsActAsTheCallerWithTheRoutesOwnChecks) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  McpSession mcp(api, owner.test_key);
  // CASL first: no consent, no send.
  nlohmann::json refused = mcp.call("send_sms", {{"from", kFrom}, {"to", kTo}, {"body", "hi"}});
  EXPECT_TRUE(refused["isError"]);
  EXPECT_EQ(refused["structuredContent"]["code"], "NO_CONSENT");
  EXPECT_EQ(mcp.call("check_consent", {{"phone_number", kTo}})["structuredContent"]["allowed"],
            false);
  nlohmann::json consent = mcp.call(
      "record_consent",
      {{"phone_number", kTo}, {"consent_type", "express"}, {"source_description", "web form"}});
  EXPECT_FALSE(consent["isError"]) << consent;
  nlohmann::json sent = mcp.call(
      "send_sms", {{"from", kFrom}, {"to", kTo}, {"body", "hello"}, {"idempotency_key", "k1"}});
  ASSERT_FALSE(sent["isError"]) << sent;
  nlohmann::json message = sent["structuredContent"];
  EXPECT_EQ(message["mode"], "TEST");
  EXPECT_EQ(message["to"], kTo);
  nlohmann::json repeat = mcp.call(
      "send_sms", {{"from", kFrom}, {"to", kTo}, {"body", "hello"}, {"idempotency_key", "k1"}});
  EXPECT_EQ(repeat["structuredContent"]["id"], message["id"]);
  EXPECT_EQ(mcp.call("get_message", {{"id", message["id"]}})["structuredContent"]["id"],
            message["id"]);
  EXPECT_EQ(mcp.call("list_messages", {{"limit", 5}})["structuredContent"]["meta"]["total"], 1);
  nlohmann::json balance = mcp.call("get_balance", nlohmann::json::object());
  EXPECT_EQ(balance["structuredContent"]["account"]["id"], owner.id);
  EXPECT_FALSE(mcp.call("list_ledger", {{"limit", 3}})["isError"]);
  // Bad arguments are the route's validation errors, or refused by name.
  EXPECT_EQ(mcp.call("send_sms",
                     {{"from", kFrom}, {"to", "12"}, {"body", "x"}})["structuredContent"]["code"],
            "INVALID_PHONE_NUMBER");
  EXPECT_EQ(mcp.call("get_balance", {{"skip_consent_check", true}})["structuredContent"]["code"],
            "VALIDATION_ERROR");
  nlohmann::json opt_out =
      mcp.call("record_opt_out", {{"phone_number", kTo}, {"from_number", kFrom}});
  EXPECT_FALSE(opt_out["isError"]) << opt_out;
  EXPECT_EQ(
      mcp.call("send_sms",
               {{"from", kFrom}, {"to", kTo}, {"body", "again"}})["structuredContent"]["code"],
      "OPT_OUT_BLOCKED");
}

TEST(Mcp, AToolNeedsTheRoutesPermission) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  OAuthClient client(api);
  client.request["scope"] = "messages:r";
  nlohmann::json tokens = client.connect(owner);
  McpSession mcp(api, tokens["access_token"]);
  nlohmann::json refused = mcp.call("send_sms", {{"from", kFrom}, {"to", kTo}, {"body", "x"}});
  EXPECT_TRUE(refused["isError"]);
  EXPECT_EQ(refused["structuredContent"]["code"], "FORBIDDEN");
  EXPECT_EQ(refused["structuredContent"]["details"]["required_permission"], "messages:w");
  EXPECT_FALSE(mcp.call("list_messages", nlohmann::json::object())["isError"]);
}

TEST(Mcp, ABrowserPageOfAnotherOriginIsRefused) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  McpSession mcp(api, owner.test_key);
  EXPECT_EQ(mcp.rpc("ping", nlohmann::json::object(), {{"Origin", "https://evil.example"}}).status,
            403);
  EXPECT_EQ(mcp.rpc("ping").status, 200);
}

// Whatever a client sends, the answer is JSON-RPC's (or the spec's, for a body that is not
// JSON at all): never a 500.
TEST(Mcp, MalformedMessagesGetJsonRpcErrors) {
  HttpTestClient api(apiUrl());
  TestAccount owner = signUp(api);
  auto send = [&](const nlohmann::json& message) {
    return api.call("POST", "/mcp", bearer(owner.test_key), message);
  };
  for (const nlohmann::json& message :
       {nlohmann::json::array({{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}}}),
        nlohmann::json({{"jsonrpc", 2}, {"id", 1}, {"method", "ping"}}),
        nlohmann::json({{"jsonrpc", "2.0"}, {"id", 1}, {"method", 7}}),
        nlohmann::json({{"jsonrpc", "2.0"}, {"id", {{"a", 1}}}, {"method", "ping"}})}) {
    Reply reply = send(message);
    EXPECT_EQ(reply.status, 400) << message;
    EXPECT_EQ(reply.body["error"]["code"], -32600) << message;
  }
  for (const nlohmann::json& params :
       {nlohmann::json::array(), nlohmann::json({{"name", 5}}),
        nlohmann::json({{"name", "get_balance"}, {"arguments", "all"}})}) {
    Reply reply =
        send({{"jsonrpc", "2.0"}, {"id", "x"}, {"method", "tools/call"}, {"params", params}});
    EXPECT_EQ(reply.status, 200) << params;
    EXPECT_EQ(reply.body["error"]["code"], -32602) << params;
    EXPECT_EQ(reply.body["id"], "x");
  }
  std::string garbage = "{\"jsonrpc\": \"2.0\", ";
  Reply unparsable =
      api.call("POST", "/mcp", bearer(owner.test_key, {{"Content-Type", "application/json"}}),
               nullptr, &garbage);
  EXPECT_EQ(unparsable.status, 400);
  EXPECT_EQ(unparsable.body["error"]["code"], -32700);
  // JSON the API never reads (a NUL in a string) is no request either (found by Schemathesis).
  std::string with_nul =
      R"({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"a": "\u0000"}})";
  Reply unreadable =
      api.call("POST", "/mcp", bearer(owner.test_key, {{"Content-Type", "application/json"}}),
               nullptr, &with_nul);
  EXPECT_EQ(unreadable.status, 400) << unreadable.raw_body;
  EXPECT_EQ(unreadable.body["error"]["code"], -32600) << unreadable.raw_body;
  Reply initialize = send({{"jsonrpc", "2.0"},
                           {"id", 2},
                           {"method", "initialize"},
                           {"params", {{"protocolVersion", 2025}}}});
  EXPECT_EQ(initialize.body["result"]["protocolVersion"], "2025-11-25");
}
