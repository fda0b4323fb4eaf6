#pragma once
// The MCP endpoint's tools. Each is one REST route, called in-process as the same caller: the
// same validation, permissions, fences, consent checks and charges, and the same errors
// (a tool error carries the spec's error body). Descriptions name what a call costs, with the
// price table's figures filled in when the list is read.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace smsgw::api {

struct McpTool {
  std::string name;
  std::string title;
  std::string description;  // {price_code} stands for that price in cents
  nlohmann::json input_schema;
  std::string method;
  std::string route;  // the REST route's pattern; {id} comes from the argument of that name
  bool read_only = true;
  // The route parameter the caller's own account id fills (the ledger's /v1/accounts/{id}/...).
  std::string account_parameter;
};

const std::vector<McpTool>& mcpTools();

}  // namespace smsgw::api
