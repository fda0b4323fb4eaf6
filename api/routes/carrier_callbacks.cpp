// The carrier's webhooks, as Telnyx's Messaging API v2 posts them: one URL for every event,
// signed with Ed25519 (domain/carrier_callback.h) and told apart by `data.event_type`.
// message.finalized is a delivery receipt and message.received an inbound text: each is
// checked, written to the outbox for its topic and answered at once; workers do the rest.
// message.sent and every other type are answered 200 and dropped (our message.sent is raised
// when the carrier answers the send). Telnyx retries what it did not see answered, so a second
// copy must be harmless: receipts settle a message once, inbound texts are unique per carrier id.
// With the database away, a callback is published to Kafka without the outbox rather than
// refused: nothing then rests on the carrier trying again.
#include <spdlog/spdlog.h>

#include "api/routes/routes.h"
#include "db/error_text.h"
#include "db/outbox.h"
#include "domain/carrier_callback.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "services/messaging/lifecycle.h"
#include "topics/catalogue.h"
#include "topics/records.h"

namespace smsgw::api {
namespace {

void requireTelnyxSignature(App& app, const ApiRequest& req) {
  bool valid = verifyTelnyxWebhook(app.config.carrier_webhook_public_key,
                                   req.header("telnyx-timestamp").value_or(""),
                                   req.header("telnyx-signature-ed25519").value_or(""),
                                   req.raw_body, unixSeconds(app.clock.now()));
  if (!valid) {
    spdlog::warn("refused an unsigned or stale carrier webhook from {}", req.client_ip);
    throw ApiError(ErrorCode::UNAUTHORIZED);
  }
}

std::string textAt(const nlohmann::json& object, const nlohmann::json::json_pointer& at) {
  if (!object.contains(at) || !object[at].is_string()) return "";
  return object[at].get<std::string>();
}

ApiResponse publish(App& app, const std::string& topic, const std::string& key,
                    const nlohmann::json& record) {
  try {
    db::enqueueOutbox(app.db, topic, key, record.dump());
    app.relay.notify();
  } catch (const std::exception& e) {
    if (!db::isTransient(e)) throw;
    // The database away: a text or a receipt the carrier may not send again goes to Kafka
    // straight, and its worker waits for the database (it takes any order, and repeats).
    spdlog::warn("carrier callback for {} published without the outbox: the database is away",
                 topic);
    app.relay.publishWithoutOutbox(topic, key, record.dump());
  }
  return ApiResponse::json(200, {{"received", true}});
}

// A final receipt: the recipient's status is required and must be one Telnyx has, so that
// nothing is guessed and a word we do not know is refused where Telnyx's dashboard shows it.
ApiResponse receipt(App& app, const nlohmann::json& payload) {
  std::string status = textAt(payload, "/to/0/status"_json_pointer);
  try {
    messaging::receiptMove(status);
  } catch (const std::invalid_argument&) {
    spdlog::warn("refused a receipt for {} with status '{}'", textAt(payload, "/id"_json_pointer),
                 status);
    throw validationError("data.payload.to[0].status",
                          status.empty() ? "is required" : "is not a Telnyx recipient status");
  }
  topics::CarrierReceipt receipt{textAt(payload, "/id"_json_pointer), status};
  if (receipt.carrier_message_id.empty()) throw validationError("data.payload.id", "is required");
  if (payload.contains("errors") && payload["errors"].is_array())
    receipt.errors = payload["errors"];
  // A send whose answer was lost is recognised by what it was (messaging/in_doubt.h).
  if (payload.contains("text") && payload["text"].is_string()) {
    receipt.from = textAt(payload, "/from/phone_number"_json_pointer);
    receipt.to = textAt(payload, "/to/0/phone_number"_json_pointer);
    receipt.text_sha256 = crypto::sha256Hex(payload["text"].get<std::string>());
    receipt.parts = payload.contains("parts") && payload["parts"].is_number_integer()
                        ? std::max(1, payload["parts"].get<int>())
                        : 0;
  }
  return publish(app, std::string(topics::kCarrierReceipts.name), receipt.carrier_message_id,
                 receipt.toJson());
}

ApiResponse inbound(App& app, const nlohmann::json& payload) {
  topics::InboundSms sms{payload["id"],
                         textAt(payload, "/from/phone_number"_json_pointer),
                         textAt(payload, "/to/0/phone_number"_json_pointer),
                         textAt(payload, "/text"_json_pointer),
                         payload.contains("parts") && payload["parts"].is_number_integer()
                             ? std::max(1, payload["parts"].get<int>())
                             : 1,
                         formatIso(app.clock.now())};
  if (sms.from.empty() || sms.to.empty())
    throw validationError("data.payload", "from.phone_number and to[0].phone_number are required");
  return publish(app, std::string(topics::kSmsInbound.name), sms.to, sms.toJson());
}

ApiResponse webhook(App& app, ApiRequest& req) {
  requireTelnyxSignature(app, req);
  const nlohmann::json& body = req.body;
  std::string type = body.is_object() ? textAt(body, "/data/event_type"_json_pointer) : "";
  if (type != "message.finalized" && type != "message.received")
    return ApiResponse::json(200, {{"received", true}});
  nlohmann::json payload = body.value("/data/payload"_json_pointer, nlohmann::json());
  if (!payload.is_object() || textAt(payload, "/id"_json_pointer).empty())
    throw validationError("data.payload.id", "is required");
  return type == "message.finalized" ? receipt(app, payload) : inbound(app, payload);
}

}  // namespace

void addCarrierCallbackRoutes(Router& router, App& app) {
  RouteOptions carrier;  // authenticated by signature, not by API key
  carrier.authenticated = false;
  router.add("POST", "/carrier/webhooks", carrier,
             [&app](ApiRequest& r) { return webhook(app, r); });
}

}  // namespace smsgw::api
