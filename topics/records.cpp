#include "topics/records.h"

namespace smsgw::topics {
namespace {

template <typename T>
T field(const nlohmann::json& j, const char* name) {
  if (!j.contains(name)) throw PermanentError(std::string("record lacks ") + name);
  try {
    return j.at(name).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw PermanentError(std::string("record field ") + name + " has the wrong type");
  }
}

}  // namespace

nlohmann::json parseVersioned(const std::string& payload, int expected_version) {
  auto j = nlohmann::json::parse(payload, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw PermanentError("record is not a JSON object");
  if (!j.contains("v") || !j["v"].is_number_integer() || j["v"].get<int>() != expected_version) {
    throw PermanentError("unknown record version");
  }
  return j;
}

nlohmann::json OutboundSms::toJson() const {
  return {{"v", 1},
          {"message_id", message_id},
          {"account_id", account_id},
          {"from", from},
          {"mode", mode}};
}

OutboundSms OutboundSms::parse(const std::string& payload) {
  auto j = parseVersioned(payload, 1);
  return {field<std::string>(j, "message_id"), field<std::string>(j, "account_id"),
          field<std::string>(j, "from"), field<std::string>(j, "mode")};
}

nlohmann::json CarrierReceipt::toJson() const {
  nlohmann::json j = {
      {"v", 1}, {"carrier_message_id", carrier_message_id}, {"status", status}, {"errors", errors}};
  if (!text_sha256.empty()) {
    j["from"] = from;
    j["to"] = to;
    j["text_sha256"] = text_sha256;
    j["parts"] = parts;
  }
  return j;
}

CarrierReceipt CarrierReceipt::parse(const std::string& payload) {
  auto j = parseVersioned(payload, 1);
  CarrierReceipt r{field<std::string>(j, "carrier_message_id"), field<std::string>(j, "status")};
  if (j.contains("errors") && j["errors"].is_array()) r.errors = j["errors"];
  if (j.contains("text_sha256") && j["text_sha256"].is_string()) {
    r.from = j.value("from", "");
    r.to = j.value("to", "");
    r.text_sha256 = j["text_sha256"];
    r.parts = j.contains("parts") && j["parts"].is_number_integer() ? j["parts"].get<int>() : 0;
  }
  return r;
}

nlohmann::json InboundSms::toJson() const {
  return {{"v", 1},
          {"carrier_message_id", carrier_message_id},
          {"from", from},
          {"to", to},
          {"text", text},
          {"parts", parts},
          {"received_at", received_at}};
}

InboundSms InboundSms::parse(const std::string& payload) {
  auto j = parseVersioned(payload, 1);
  return {field<std::string>(j, "carrier_message_id"),
          field<std::string>(j, "from"),
          field<std::string>(j, "to"),
          field<std::string>(j, "text"),
          field<int>(j, "parts"),
          field<std::string>(j, "received_at")};
}

nlohmann::json BillingRent::toJson() const {
  return {{"v", 1},
          {"phone_number_id", phone_number_id},
          {"action", action},
          {"period", period},
          {"as_of", as_of}};
}

BillingRent BillingRent::parse(const std::string& payload) {
  auto j = parseVersioned(payload, 1);
  BillingRent r{field<std::string>(j, "phone_number_id"), field<std::string>(j, "action"),
                field<int>(j, "period"), field<std::string>(j, "as_of")};
  if (r.action != "collect" && r.action != "expire") {
    throw PermanentError("unknown billing action " + r.action);
  }
  return r;
}

nlohmann::json EventRecord::envelope() const {
  return {{"id", id},
          {"type", type},
          {"created", created},
          {"account_id", account_id},
          {"livemode", livemode},
          {"data", data}};
}

nlohmann::json EventRecord::toJson() const {
  auto j = envelope();
  j["v"] = 1;
  return j;
}

EventRecord EventRecord::parse(const std::string& payload) {
  auto j = parseVersioned(payload, 1);
  return {field<std::string>(j, "id"),      field<std::string>(j, "type"),
          field<std::string>(j, "created"), field<std::string>(j, "account_id"),
          field<bool>(j, "livemode"),       field<nlohmann::json>(j, "data")};
}

}  // namespace smsgw::topics
