#include "adapters/http_carrier_client.h"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <optional>

#include "adapters/http_client.h"
#include "adapters/metrics.h"
#include "domain/area_codes.h"

namespace smsgw {

namespace {

// The text at `at`, or "" when it is absent, null or not text: Telnyx's schemas let many fields
// be null (errors[].code, carrier.type), and reading one must never throw.
std::string textAt(const nlohmann::json& value, const nlohmann::json::json_pointer& at) {
  if (!value.is_object() || !value.contains(at)) return "";
  const auto& found = value[at];
  return found.is_string() ? found.get<std::string>() : "";
}

void readCarrierError(const std::string& body, CarrierSendResult& result) {
  auto parsed = nlohmann::json::parse(body, nullptr, false);
  if (parsed.is_object() && parsed.contains("errors") && parsed["errors"].is_array() &&
      !parsed["errors"].empty()) {
    const auto& first = parsed["errors"][0];
    result.error_code = textAt(first, "/code"_json_pointer);
    result.error_detail = textAt(first, "/detail"_json_pointer);
    if (result.error_detail.empty()) result.error_detail = textAt(first, "/title"_json_pointer);
  }
}

// E.164 in a URL path: the '+' must be escaped.
std::string pathNumber(const std::string& number) {
  return number.starts_with("+") ? "%2B" + number.substr(1) : number;
}

// A number as Telnyx's filter[phone_number] takes it: "Requires at least three digits.
// Non-numerical characters will result in no values being returned." (issue 50: with "%2B1…"
// every lookup found nothing, and releases were recorded while Telnyx kept billing).
std::string filterDigits(const std::string& number) {
  std::string digits;
  for (char c : number)
    if (c >= '0' && c <= '9') digits.push_back(c);
  return digits;
}

// A record's id as text: Telnyx sends its IntId as a numeric string; a number is read too.
std::string recordId(const nlohmann::json& record) {
  if (!record.contains("id")) return "";
  if (record["id"].is_string()) return record["id"].get<std::string>();
  if (record["id"].is_number_unsigned())
    return std::to_string(record["id"].get<unsigned long long>());
  return "";
}

// One call to the carrier, counted by operation and outcome (adapters/metrics.h).
HttpResponse counted(const char* operation, const std::string& method, const std::string& url,
                     const HttpHeaders& headers, const std::string& body,
                     std::chrono::milliseconds timeout) {
  static const std::vector<std::string> kRateLimitHeaders{"x-ratelimit-reset", "retry-after"};
  HttpResponse response = httpRequest(method, url, headers, body, timeout, std::nullopt,
                                      ConnectionUse::Fresh, kRateLimitHeaders);
  const char* outcome = response.status >= 200 && response.status < 300  ? "ok"
                        : response.timed_out                             ? "timeout"
                        : response.status == 0 || response.status >= 500 ? "error"
                                                                         : "refused";
  metrics::carrierCall(operation, outcome,
                       std::chrono::duration<double>(response.duration).count());
  return response;
}

NumberOperation operationFrom(const HttpResponse& response) {
  NumberOperation result;
  if (response.status >= 200 && response.status < 300) {
    result.kind = NumberOperation::Kind::Done;
    return result;
  }
  CarrierSendResult error;
  readCarrierError(response.body, error);
  result.error_code = error.error_code;
  result.error_detail = response.status == 0 ? response.error : error.error_detail;
  if (response.status == 404) {
    result.kind = NumberOperation::Kind::NotHeld;
  } else if (response.status >= 400 && response.status < 500 && response.status != 429) {
    result.kind = NumberOperation::Kind::Refused;
  } else {
    result.kind = NumberOperation::Kind::Failed;  // 0 (no answer), 429 or 5xx
  }
  return result;
}

// The `data` array of a Telnyx list answer; nothing for any other answer.
std::optional<nlohmann::json> listData(const HttpResponse& response) {
  if (response.status != 200) return std::nullopt;
  auto parsed = nlohmann::json::parse(response.body, nullptr, false);
  if (!parsed.is_object() || !parsed.contains("data") || !parsed["data"].is_array())
    return std::nullopt;
  return parsed["data"];
}

// The order's status as ours: success, pending, failure (Telnyx's three).
NumberOperation orderFrom(const nlohmann::json& order) {
  NumberOperation result;
  std::string status = textAt(order, "/status"_json_pointer);
  if (status == "success") {
    result.kind = NumberOperation::Kind::Done;
  } else if (status == "pending") {
    result.kind = NumberOperation::Kind::Pending;
  } else if (status == "failure") {
    result.kind = NumberOperation::Kind::Refused;
    result.error_detail = "order failed";
  } else {
    result.kind = NumberOperation::Kind::Failed;
    result.error_detail = "order status " + (status.empty() ? "unreadable" : status);
  }
  return result;
}

}  // namespace

NumberHolding holdingOfTelnyx(std::string_view status) {
  for (std::string_view held : {"active", "emergency-only", "port-out-pending"})
    if (status == held) return NumberHolding::Held;
  for (std::string_view gone : {"deleted", "purchase-failed", "port-failed", "ported-out"})
    if (status == gone) return NumberHolding::NotHeld;
  return NumberHolding::Unknown;
}

LineType lineTypeOfTelnyx(std::string_view type) {
  if (type == "mobile") return LineType::Mobile;
  if (type == "voip") return LineType::Voip;
  for (std::string_view no_texts :
       {"fixed line", "pager", "voicemail", "premium rate", "shared cost", "uan"}) {
    if (type == no_texts) return LineType::Landline;
  }
  return LineType::Unknown;
}

std::chrono::seconds waitAskedByCarrier(const std::string* ratelimit_reset,
                                        const std::string* retry_after) {
  for (const std::string* given : {ratelimit_reset, retry_after}) {
    if (!given) continue;
    long long seconds = 0;
    auto [end, error] = std::from_chars(given->data(), given->data() + given->size(), seconds);
    if (error == std::errc() && end == given->data() + given->size() && seconds >= 0)
      return std::chrono::seconds(seconds);
  }
  return std::chrono::seconds(0);
}

HttpHeaders HttpCarrierClient::authorization() const {
  return {{"Authorization", "Bearer " + config_.api_key}};
}

HttpHeaders HttpCarrierClient::jsonHeaders() const {
  HttpHeaders headers = authorization();
  headers.emplace_back("Content-Type", "application/json");
  return headers;
}

CarrierSendResult HttpCarrierClient::sendMessage(const std::string& from, const std::string& to,
                                                 const std::string& text) {
  nlohmann::json request = {{"from", from}, {"to", to}, {"text", text}};
  if (!config_.webhook_url.empty()) request["webhook_url"] = config_.webhook_url;
  HttpResponse response = counted("send", "POST", config_.base_url + "/v2/messages", jsonHeaders(),
                                  request.dump(), config_.timeout);
  CarrierSendResult result;
  if (response.status == 0) {
    result.kind = response.request_sent ? CarrierSendResult::Kind::InDoubt
                                        : CarrierSendResult::Kind::Unavailable;
    result.error_detail = response.error;
    return result;
  }
  if (response.status >= 200 && response.status < 300) {
    auto parsed = nlohmann::json::parse(response.body, nullptr, false);
    const nlohmann::json* data =
        parsed.is_object() && parsed.contains("data") ? &parsed["data"] : nullptr;
    if (data && data->is_object() && data->contains("id") && (*data)["id"].is_string()) {
      result.kind = CarrierSendResult::Kind::Accepted;
      result.carrier_message_id = (*data)["id"].get<std::string>();
      // Telnyx's schema lets parts and wait_seconds be null: one part, no queue.
      const auto& parts = data->contains("parts") ? (*data)["parts"] : nlohmann::json();
      result.parts = parts.is_number_integer() ? std::max(1, parts.get<int>()) : 1;
      const auto& wait =
          data->contains("wait_seconds") ? (*data)["wait_seconds"] : nlohmann::json();
      if (wait.is_number() && wait.get<double>() > 0) {
        result.carrier_queue_wait =
            std::chrono::milliseconds(static_cast<long long>(wait.get<double>() * 1000));
      }
      return result;
    }
    // An unreadable success is in doubt: the text may have left.
    result.kind = CarrierSendResult::Kind::InDoubt;
    result.error_detail = "unreadable carrier answer";
    return result;
  }
  readCarrierError(response.body, result);
  if (response.status == 429) {
    result.kind = CarrierSendResult::Kind::Throttled;
    result.retry_after =
        waitAskedByCarrier(response.header("x-ratelimit-reset"), response.header("retry-after"));
  } else if (response.status >= 500) {
    // A 502 or 504 can come from a proxy after Telnyx took the text: in doubt, never resent.
    result.kind = CarrierSendResult::Kind::InDoubt;
  } else if (result.error_code == kTelnyxBlockRuleCode) {
    result.kind = CarrierSendResult::Kind::OptedOutAtCarrier;
  } else {
    result.kind = CarrierSendResult::Kind::Refused;
  }
  return result;
}

LookupResult HttpCarrierClient::lookupNumber(const std::string& number) {
  // type=carrier: without it Telnyx answers the base lookup, which has no line type.
  HttpResponse response =
      counted("lookup", "GET",
              config_.base_url + "/v2/number_lookup/" + pathNumber(number) + "?type=carrier",
              authorization(), "", config_.timeout);
  LookupResult result;
  if (response.status != 200) return result;
  auto parsed = nlohmann::json::parse(response.body, nullptr, false);
  if (!parsed.is_object() || !parsed.contains("data")) return result;
  std::string type = textAt(parsed["data"], "/carrier/type"_json_pointer);
  result.ok = true;
  result.line_type = lineTypeOfTelnyx(type);
  return result;
}

NumberSearchResult HttpCarrierClient::searchNumbers(const std::string& area_code, int limit) {
  // Telnyx's filter[phone_number_type] tells a toll-free search from a local one, and
  // filter[best_effort]=false asks for exact matches only: a number outside the area code asked
  // for is not what the customer searched.
  const AreaCode* known = areaCodes().find(area_code);
  bool toll_free = known && known->toll_free;
  HttpResponse response =
      counted("search", "GET",
              config_.base_url + "/v2/available_phone_numbers?filter%5Bcountry_code%5D=CA" +
                  "&filter%5Bnational_destination_code%5D=" + area_code +
                  "&filter%5Bphone_number_type%5D=" + (toll_free ? "toll_free" : "local") +
                  "&filter%5Bbest_effort%5D=false&filter%5Bfeatures%5D=sms&filter%5Blimit%5D=" +
                  std::to_string(limit),
              authorization(), "", config_.timeout);
  NumberSearchResult result;
  auto parsed = nlohmann::json::parse(response.body, nullptr, false);
  if (response.status != 200 || !parsed.is_object() || !parsed.contains("data") ||
      !parsed["data"].is_array()) {
    result.error_detail = response.status == 0
                              ? response.error
                              : "carrier answered " + std::to_string(response.status);
    if (response.status == 429) {
      result.throttled = true;
      result.retry_after =
          waitAskedByCarrier(response.header("x-ratelimit-reset"), response.header("retry-after"));
    }
    return result;
  }
  const std::string wanted_prefix = "+1" + area_code;
  for (const auto& item : parsed["data"]) {
    if (!item.is_object() || !item.contains("phone_number") || !item["phone_number"].is_string()) {
      continue;
    }
    // Best-effort results are numbers near, not in, what was asked: dropped even if the carrier
    // sends them despite the filter.
    bool best_effort = item.contains("best_effort") && item["best_effort"].is_boolean() &&
                       item["best_effort"].get<bool>();
    if (best_effort || !item["phone_number"].get<std::string>().starts_with(wanted_prefix))
      continue;
    AvailableNumber number{item["phone_number"], {}};
    if (item.contains("features") && item["features"].is_array()) {
      for (const auto& feature : item["features"]) {
        if (feature.is_object() && feature.contains("name") && feature["name"].is_string())
          number.capabilities.push_back(feature["name"]);
      }
    }
    result.numbers.push_back(std::move(number));
  }
  result.ok = true;
  return result;
}

NumberOperation HttpCarrierClient::orderNumber(const std::string& number,
                                               const std::string& reference) {
  nlohmann::json request = {{"phone_numbers", nlohmann::json::array({{{"phone_number", number}}})},
                            {"messaging_profile_id", config_.messaging_profile_id},
                            {"customer_reference", reference}};
  HttpResponse response = counted("order", "POST", config_.base_url + "/v2/number_orders",
                                  jsonHeaders(), request.dump(), config_.timeout);
  NumberOperation result = operationFrom(response);
  if (result.kind == NumberOperation::Kind::Done) {
    auto parsed = nlohmann::json::parse(response.body, nullptr, false);
    return orderFrom(parsed.is_object() ? parsed.value("data", nlohmann::json()) : nullptr);
  }
  if (result.kind == NumberOperation::Kind::NotHeld) result.kind = NumberOperation::Kind::Refused;
  return result;
}

// GET /v2/number_orders?filter[customer_reference]=: our purchase id finds the order even when
// the answer to its POST was lost.
NumberOperation HttpCarrierClient::orderStatus(const std::string& reference) {
  HttpResponse response =
      counted("order_status", "GET",
              config_.base_url + "/v2/number_orders?filter%5Bcustomer_reference%5D=" + reference,
              authorization(), "", config_.timeout);
  auto orders = listData(response);
  if (!orders) {
    return {NumberOperation::Kind::Failed, "",
            response.status == 0 ? response.error
                                 : "carrier answered " + std::to_string(response.status)};
  }
  if (orders->empty()) return {NumberOperation::Kind::NotHeld, "", "no order"};
  return orderFrom((*orders)[0]);
}

HttpCarrierClient::Found HttpCarrierClient::findNumber(const std::string& number) {
  HttpResponse response = counted(
      "holding", "GET",
      config_.base_url + "/v2/phone_numbers?filter%5Bphone_number%5D=" + filterDigits(number),
      authorization(), "", config_.timeout);
  auto records = listData(response);
  if (!records) return {};
  // The filter matches digits anywhere: only this number's records count. One held record
  // wins; else one whose outcome is open makes the answer open; else it is not held.
  Found found{NumberHolding::NotHeld, ""};
  for (const auto& record : *records) {
    if (!record.is_object() || !record.contains("phone_number") ||
        !record["phone_number"].is_string() ||
        filterDigits(record["phone_number"].get<std::string>()) != filterDigits(number))
      continue;
    std::string status = record.contains("status") && record["status"].is_string()
                             ? record["status"].get<std::string>()
                             : "";
    NumberHolding holding = holdingOfTelnyx(status);
    std::string id = recordId(record);
    if (holding == NumberHolding::Held && !id.empty()) return {NumberHolding::Held, id};
    if (holding != NumberHolding::NotHeld) found.holding = NumberHolding::Unknown;
  }
  return found;
}

// DELETE /v2/phone_numbers/{id}. A 404 is checked, not believed: only a number Telnyx no
// longer lists for us is released; one it still lists was not released (Refused, so the
// caller restores it without asking Telnyx a third time).
NumberOperation HttpCarrierClient::releaseNumber(const std::string& number,
                                                 const std::string& carrier_number_id) {
  std::string id = carrier_number_id;
  if (id.empty()) {
    Found found = findNumber(number);
    if (found.holding == NumberHolding::NotHeld) return {NumberOperation::Kind::NotHeld, "", ""};
    if (found.holding == NumberHolding::Unknown)
      return {NumberOperation::Kind::Failed, "", "could not find the number's id"};
    id = found.id;
  }
  NumberOperation result =
      operationFrom(counted("release", "DELETE", config_.base_url + "/v2/phone_numbers/" + id,
                            authorization(), "", config_.timeout));
  if (result.kind != NumberOperation::Kind::NotHeld) return result;
  switch (findNumber(number).holding) {
    case NumberHolding::NotHeld:
      return result;
    case NumberHolding::Held:
      return {NumberOperation::Kind::Refused, result.error_code,
              "404 on release, yet the number is still listed"};
    case NumberHolding::Unknown:
      break;
  }
  return {NumberOperation::Kind::Failed, result.error_code, "404 on release, not confirmed"};
}

NumberHolding HttpCarrierClient::numberHolding(const std::string& number) {
  return findNumber(number).holding;
}

std::string HttpCarrierClient::carrierNumberId(const std::string& number) {
  return findNumber(number).id;
}

// GET /v2/messages/{id}: the message's recipient status and its first error, as a receipt
// would carry them.
CarrierMessageStatus HttpCarrierClient::messageStatus(const std::string& carrier_message_id) {
  HttpResponse response =
      counted("status", "GET", config_.base_url + "/v2/messages/" + carrier_message_id,
              authorization(), "", config_.timeout);
  CarrierMessageStatus answer;
  if (response.status != 200) return answer;
  auto body = nlohmann::json::parse(response.body, nullptr, false);
  if (body.is_discarded() || !body.contains("data") || !body["data"].is_object()) return answer;
  const auto& data = body["data"];
  if (!data.contains("to") || !data["to"].is_array() || data["to"].empty() ||
      !data["to"][0].is_object() || !data["to"][0].contains("status") ||
      !data["to"][0]["status"].is_string())
    return answer;
  answer.status = data["to"][0]["status"].get<std::string>();
  if (data.contains("errors") && data["errors"].is_array() && !data["errors"].empty() &&
      data["errors"][0].is_object()) {
    answer.error_code = textAt(data["errors"][0], "/code"_json_pointer);
    answer.error_title = textAt(data["errors"][0], "/title"_json_pointer);
  }
  answer.ok = true;
  return answer;
}

}  // namespace smsgw
