#include "domain/carrier_client.h"

#include <nlohmann/json.hpp>

#include "domain/http_client.h"

namespace smsgw {
namespace {

void readCarrierError(const std::string& body, CarrierSendResult& result) {
  auto parsed = nlohmann::json::parse(body, nullptr, false);
  if (parsed.is_object() && parsed.contains("errors") && parsed["errors"].is_array() &&
      !parsed["errors"].empty()) {
    const auto& first = parsed["errors"][0];
    result.error_code = first.value("code", "");
    result.error_detail = first.value("detail", first.value("title", ""));
  }
}

}  // namespace

CarrierSendResult HttpCarrierClient::sendMessage(const std::string& from, const std::string& to,
                                                 const std::string& text) {
  nlohmann::json request = {{"from", from}, {"to", to}, {"text", text}};
  HttpResponse response = httpRequest(
      "POST", config_.base_url + "/v2/messages",
      {{"Authorization", "Bearer " + config_.api_key}, {"Content-Type", "application/json"}},
      request.dump(), config_.timeout);
  CarrierSendResult result;
  if (response.status == 0) {
    result.kind = response.timed_out ? CarrierSendResult::Kind::Timeout
                                     : CarrierSendResult::Kind::Unavailable;
    result.error_detail = response.error;
    return result;
  }
  if (response.status >= 200 && response.status < 300) {
    auto parsed = nlohmann::json::parse(response.body, nullptr, false);
    if (parsed.is_object() && parsed.contains("data") && parsed["data"].contains("id")) {
      result.kind = CarrierSendResult::Kind::Accepted;
      result.carrier_message_id = parsed["data"]["id"].get<std::string>();
      result.parts = parsed["data"].value("parts", 1);
      return result;
    }
    // An unreadable success is treated like a timeout: the text may have left.
    result.kind = CarrierSendResult::Kind::Timeout;
    result.error_detail = "unreadable carrier answer";
    return result;
  }
  readCarrierError(response.body, result);
  if (response.status == 429) {
    result.kind = CarrierSendResult::Kind::Throttled;
  } else if (response.status >= 500) {
    result.kind = CarrierSendResult::Kind::Unavailable;
  } else {
    result.kind = CarrierSendResult::Kind::Refused;
  }
  return result;
}

LookupResult HttpCarrierClient::lookupNumber(const std::string& number) {
  HttpResponse response =
      httpRequest("GET", config_.base_url + "/v2/number_lookup/" + number,
                  {{"Authorization", "Bearer " + config_.api_key}}, "", config_.timeout);
  LookupResult result;
  if (response.status != 200) return result;
  auto parsed = nlohmann::json::parse(response.body, nullptr, false);
  if (!parsed.is_object() || !parsed.contains("data")) return result;
  std::string type = parsed["data"].value("/carrier/type"_json_pointer, std::string());
  result.ok = true;
  result.line_type = type == "mobile"     ? LineType::Mobile
                     : type == "landline" ? LineType::Landline
                     : type == "voip"     ? LineType::Voip
                                          : LineType::Unknown;
  return result;
}

}  // namespace smsgw
