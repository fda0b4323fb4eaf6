// The carrier's signed callbacks: delivery receipts and inbound texts. Each is checked,
// written to the outbox for its topic and answered at once; workers do the rest.
#include <spdlog/spdlog.h>

#include "api/routes/routes.h"
#include "db/outbox.h"
#include "domain/carrier_callback.h"
#include "domain/errors.h"
#include "topics/catalogue.h"
#include "topics/records.h"

namespace smsgw::api {
namespace {

nlohmann::json verifiedPayload(App& app, const ApiRequest& req) {
  bool valid = verifyCarrierCallback(
      app.config.carrier_callback_secret, req.header("x-carrier-timestamp").value_or(""),
      req.header("x-carrier-signature").value_or(""), req.raw_body, unixSeconds(app.clock.now()));
  if (!valid) {
    spdlog::warn("refused unauthenticated carrier callback {} from {}", req.path, req.client_ip);
    throw ApiError(ErrorCode::UNAUTHORIZED);
  }
  nlohmann::json payload = req.body.is_object()
                               ? req.body.value("/data/payload"_json_pointer, nlohmann::json())
                               : nlohmann::json();
  if (!payload.is_object() || !payload.contains("id") || !payload["id"].is_string()) {
    throw validationError("data.payload.id", "is required");
  }
  return payload;
}

ApiResponse publish(App& app, const std::string& topic, const std::string& key,
                    const nlohmann::json& record) {
  db::enqueueOutbox(app.db, topic, key, record.dump());
  app.relay.notify();
  return ApiResponse::json(200, {{"received", true}});
}

ApiResponse receipt(App& app, ApiRequest& req) {
  nlohmann::json payload = verifiedPayload(app, req);
  topics::CarrierReceipt receipt{
      payload["id"], payload.value("/to/0/status"_json_pointer, std::string("delivered"))};
  if (payload.contains("errors") && payload["errors"].is_array())
    receipt.errors = payload["errors"];
  return publish(app, std::string(topics::kCarrierReceipts.name), receipt.carrier_message_id,
                 receipt.toJson());
}

ApiResponse inbound(App& app, ApiRequest& req) {
  nlohmann::json payload = verifiedPayload(app, req);
  topics::InboundSms sms{payload["id"],
                         payload.value("/from/phone_number"_json_pointer, std::string()),
                         payload.value("/to/0/phone_number"_json_pointer, std::string()),
                         payload.value("text", std::string()),
                         payload.value("parts", 1),
                         formatIso(app.clock.now())};
  if (sms.from.empty() || sms.to.empty())
    throw validationError("data.payload", "from and to are required");
  return publish(app, std::string(topics::kSmsInbound.name), sms.to, sms.toJson());
}

}  // namespace

void addCarrierCallbackRoutes(Router& router, App& app) {
  RouteOptions carrier;  // authenticated by signature, not by API key
  carrier.authenticated = false;
  router.add("POST", "/carrier/receipts", carrier,
             [&app](ApiRequest& r) { return receipt(app, r); });
  router.add("POST", "/carrier/inbound", carrier,
             [&app](ApiRequest& r) { return inbound(app, r); });
}

}  // namespace smsgw::api
