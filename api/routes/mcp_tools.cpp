#include "api/routes/mcp_tools.h"

namespace smsgw::api {
namespace {

nlohmann::json phone(const char* what) {
  return {{"type", "string"},
          {"pattern", "^\\+1[2-9][0-9]{9}$"},
          {"description", std::string(what) + ", E.164 (+1 and ten digits, Canadian)"}};
}

nlohmann::json object(nlohmann::json properties, const std::vector<std::string>& required = {}) {
  if (properties.is_null()) properties = nlohmann::json::object();  // object({}) is no arguments
  nlohmann::json schema = {
      {"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = required;
  return schema;
}

nlohmann::json pageArguments() {
  return {{"page", {{"type", "integer"}, {"minimum", 1}}},
          {"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", 100}}}};
}

McpTool tool(std::string name, std::string title, std::string description,
             nlohmann::json input_schema, std::string method, std::string route,
             bool read_only = true, std::string account_parameter = "") {
  McpTool out;
  out.name = std::move(name);
  out.title = std::move(title);
  out.description = std::move(description);
  out.input_schema = std::move(input_schema);
  out.method = std::move(method);
  out.route = std::move(route);
  out.read_only = read_only;
  out.account_parameter = std::move(account_parameter);
  return out;
}

std::vector<McpTool> buildTools() {
  std::vector<McpTool> tools;
  nlohmann::json list_messages = pageArguments();
  list_messages["status"] = {{"type", "string"},
                             {"description",
                              "QUEUED, SENT, DELIVERED, FAILED, UNDELIVERABLE, "
                              "STALE_QUEUED or RECEIVED"}};
  list_messages["direction"] = {{"type", "string"}, {"enum", {"OUTBOUND", "INBOUND"}}};
  list_messages["to"] = phone("only messages to this number");
  list_messages["from"] = phone("only messages from this number");
  tools.push_back(tool(
      "send_sms", "Send an SMS",
      "Sends a text from one of the account's numbers to a Canadian number. Costs: with a LIVE "
      "connection each SMS part is charged {sms_outbound_part} cents CAD to the balance (a part "
      "is up to 160 GSM-7 characters, or 70 with other characters; longer texts are split "
      "into parts of 153 or 67); a TEST connection never reaches a real phone and costs "
      "nothing. Canada's anti-spam law applies: without the recipient's consent, or after "
      "they texted STOP, the send is refused (NO_CONSENT, OPTED_OUT). Give idempotency_key "
      "when you may retry, so a retry never sends twice.",
      object({{"from", phone("one of the account's numbers (list_my_numbers)")},
              {"to", phone("the recipient")},
              {"body", {{"type", "string"}, {"minLength", 1}, {"maxLength", 1600}}},
              {"idempotency_key",
               {{"type", "string"},
                {"maxLength", 255},
                {"description", "the same key returns the first send instead of a new one"}}}},
             {"from", "to", "body"}),
      "POST", "/v1/messages", false));
  tools.push_back(tool("get_message", "Get a message",
                       "One message by id: its status (QUEUED, SENT, DELIVERED, FAILED...), parts "
                       "and what it cost. Free.",
                       object({{"id", {{"type", "string"}, {"description", "msg_..."}}}}, {"id"}),
                       "GET", "/v1/messages/{id}"));
  tools.push_back(tool("list_messages", "List messages",
                       "The connection's messages (its mode only), newest first, a page at a time. "
                       "Free.",
                       object(list_messages), "GET", "/v1/messages"));
  tools.push_back(
      tool("check_consent", "Check consent",
           "Whether a number may be texted now under Canada's anti-spam law (CASL), and why not. "
           "Free; sends nothing.",
           object({{"phone_number", phone("the recipient")},
                   {"from_number", phone("the sending number, to take its opt-outs into account")}},
                  {"phone_number"}),
           "GET", "/v1/compliance/consents/check"));
  tools.push_back(
      tool("record_consent", "Record consent",
           "Records a recipient's consent. express: they agreed (say how, in source_description; "
           "it never expires). implied: an existing business relationship (relationship_type; "
           "it lapses as CASL says). Free. Record only consent the recipient really gave.",
           object({{"phone_number", phone("the recipient")},
                   {"consent_type", {{"type", "string"}, {"enum", {"express", "implied"}}}},
                   {"source_description", {{"type", "string"}, {"maxLength", 1000}}},
                   {"relationship_type", {{"type", "string"}, {"maxLength", 200}}},
                   {"last_transaction_date", {{"type", "string"}, {"format", "date-time"}}}},
                  {"phone_number", "consent_type"}),
           "POST", "/v1/compliance/consents", false));
  tools.push_back(tool("record_opt_out", "Record an opt-out",
                       "Records that a recipient asked not to be texted from one of the account's "
                       "numbers (as if they had texted STOP). Later sends to them from it are "
                       "refused. Free.",
                       object({{"phone_number", phone("the recipient who opted out")},
                               {"from_number", phone("the account's number they opted out of")}},
                              {"phone_number", "from_number"}),
                       "POST", "/v1/compliance/opt-outs", false));
  tools.push_back(tool(
      "search_numbers", "Search available numbers",
      "Numbers available to rent, by area code. Free to search; renting one (not a "
      "tool here) costs an activation fee of {number_activation_fee} cents and "
      "{local_number_monthly} cents a month.",
      object({{"area_codes",
               {{"type", "string"}, {"description", "comma-separated area codes, e.g. 416,647"}}},
              {"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", 100}}}}),
      "GET", "/v1/phone-numbers/search"));
  tools.push_back(tool("list_my_numbers", "List my numbers",
                       "The account's phone numbers, their status and monthly rent. Free.",
                       object({}), "GET", "/v1/phone-numbers"));
  tools.push_back(
      tool("get_balance", "Get balance",
           "The account: its balance in cents CAD, status, monthly rent and limits, and "
           "the mode this connection acts in. Free.",
           object({}), "GET", "/v1/accounts/me"));
  tools.push_back(
      tool("list_ledger", "Recent ledger",
           "The account's ledger, newest first: every charge and top-up with the balance "
           "after it. Free.",
           object({{"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", 100}}},
                   {"before",
                    {{"type", "string"},
                     {"description",
                      "a ledger id, for "
                      "the next page"}}}}),
           "GET", "/v1/accounts/{id}/transactions", true, "id"));
  tools.push_back(
      tool("start_verification", "Start a verification",
           "Texts a one-time code to a number, to prove its owner has it. Costs {verification} "
           "cents CAD with a LIVE connection; free with TEST.",
           object({{"phone_number", phone("the number to verify")},
                   {"app_name", {{"type", "string"}, {"maxLength", 30}}},
                   {"code_length", {{"type", "integer"}, {"minimum", 4}, {"maximum", 10}}}},
                  {"phone_number"}),
           "POST", "/v1/verifications", false));
  tools.push_back(tool("check_verification", "Check a verification code",
                       "Checks the code the person received (start_verification). Free.",
                       object({{"id", {{"type", "string"}, {"description", "ver_..."}}},
                               {"code", {{"type", "string"}, {"maxLength", 10}}}},
                              {"id", "code"}),
                       "POST", "/v1/verifications/{id}/check", false));
  return tools;
}

}  // namespace

const std::vector<McpTool>& mcpTools() {
  static const std::vector<McpTool> tools = buildTools();
  return tools;
}

}  // namespace smsgw::api
