// smsgw-carrier-sim: the carrier simulator. Speaks the part of Telnyx's Messaging API v2 the
// gateway uses (messages, number lookup, number search, orders, holdings and releases) and the
// control API tests and demos use (/sim/messages, /sim/inbound, /sim/faults). Its webhooks go
// to one URL signed as Telnyx signs them (Ed25519 over "{timestamp}|{body}"): message.sent when
// a text leaves, message.finalized after a short delay, message.received for inbound texts.
#include <fmt/format.h>
#include <pistache/endpoint.h>
#include <pistache/router.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include "adapters/http_carrier_client.h"
#include "adapters/http_client.h"
#include "adapters/log.h"
#include "adapters/pistache_header.h"
#include "domain/area_codes.h"
#include "domain/carrier_callback.h"
#include "domain/clock.h"
#include "domain/crypto.h"
#include "domain/sms_segments.h"
#include "ops/carrier_sim/sim_state.h"

using namespace Pistache;
using nlohmann::json;

namespace smsgw::sim {
namespace {

std::atomic<bool> g_stop{false};

// What a throttle's 429 gives as x-ratelimit-limit: the simulator has no rate of its own (it
// throttles only when a fault asks it to), so a figure of Telnyx's order for messaging.
constexpr int kSendsPerWindow = 6;

struct SimConfig {
  std::string host = "127.0.0.1";
  int port = 8090;
  std::string api_key = "sim-key";
  std::string gateway_url = "http://127.0.0.1:8080";      // its /carrier/webhooks takes callbacks
  std::string webhook_url;                                // set: callbacks go here instead
  std::string signing_key = kSimulatorWebhookPrivateKey;  // base64 of the 32-byte seed
  int receipt_delay_ms = 300;
  int timeout_fault_ms = 7000;  // longer than the gateway's carrier timeout
  int send_latency_ms = 0;      // how long every accepted send takes to answer (benchmarks)
  // Telnyx's own handling of stop words: its support article says it blocks at the account
  // level unless asked, its developer guide at the profile level. The gateway's operator has it
  // turned off (docs/carrier.md, going live), as the test stack does.
  std::string opt_out_handling = "account";
};

// Sends signed callbacks to the gateway from one background thread, each at its due time.
class CallbackQueue {
 public:
  explicit CallbackQueue(const SimConfig& config)
      : url_(config.webhook_url.empty() ? config.gateway_url + "/carrier/webhooks"
                                        : config.webhook_url),
        private_key_(crypto::base64Decode(config.signing_key)),
        thread_([this] { run(); }) {}
  ~CallbackQueue() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  // `url`: where this callback goes instead of the profile's URL (a send's webhook_url).
  void post(const json& event, std::chrono::milliseconds delay, const std::string& url = "") {
    {
      std::lock_guard lock(mutex_);
      items_.push_back({std::chrono::steady_clock::now() + delay, event, 0, url});
    }
    wake_.notify_all();
  }
  // Delivers at once on the caller's thread and returns the gateway's HTTP status; a callback
  // the gateway did not take is then tried again from the queue like any other, as Telnyx
  // retries an inbound text's webhook.
  long sendNowOrRetry(const json& event) {
    long status = sendNow(event);
    if (status < 200 || status >= 300) {
      {
        std::lock_guard lock(mutex_);
        items_.push_back({std::chrono::steady_clock::now() + kRetryAfter, event, 1, ""});
      }
      wake_.notify_all();
    }
    return status;
  }
  // Delivers immediately on the caller's thread; returns the gateway's HTTP status.
  long sendNow(const json& event, int attempt = 1, const std::string& url = "") {
    const std::string& to = url.empty() ? url_ : url;
    json body = {{"data", event}};
    // Telnyx's document gives delivery webhooks a meta object and inbound ones none.
    if (event.value("event_type", "") != "message.received")
      body["meta"] = {{"attempt", attempt}, {"delivered_to", to}};
    std::string text = body.dump();
    long long ts = unixSeconds(std::chrono::system_clock::now());
    auto response =
        httpRequest("POST", to,
                    {{"Content-Type", "application/json"},
                     {"telnyx-timestamp", std::to_string(ts)},
                     {"telnyx-signature-ed25519", signTelnyxWebhook(private_key_, ts, text)}},
                    text, std::chrono::seconds(5));
    if (response.status < 200 || response.status >= 300) {
      spdlog::warn("webhook {} answered {} {}", event.value("event_type", ""), response.status,
                   response.error);
    }
    return response.status;
  }

 private:
  struct Item {
    std::chrono::steady_clock::time_point due;
    json event;
    int attempts;
    std::string url;
  };
  // Like a real carrier, a callback the gateway did not take (down, restarting, 5xx) is tried
  // again, a second apart, for about a minute.
  static constexpr int kMaxCallbackAttempts = 60;
  static constexpr std::chrono::seconds kRetryAfter{1};
  void run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      if (items_.empty()) {
        wake_.wait(lock);
        continue;
      }
      auto due = items_.front().due;
      if (std::chrono::steady_clock::now() < due) {
        wake_.wait_until(lock, due);
        continue;
      }
      Item item = items_.front();
      items_.pop_front();
      lock.unlock();
      long status = sendNow(item.event, item.attempts + 1, item.url);
      lock.lock();
      bool taken = status >= 200 && status < 300;
      if (!taken && ++item.attempts < kMaxCallbackAttempts) {
        item.due = std::chrono::steady_clock::now() + kRetryAfter;
        items_.push_back(item);
      }
    }
  }
  const std::string url_;
  const std::string private_key_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Item> items_;
  bool stopping_ = false;
  std::thread thread_;
};

void reply(Http::ResponseWriter& writer, Http::Code code, const json& body) {
  writer.send(code, body.dump(), MIME(Application, Json));
}

bool isHttpUrl(const std::string& url) {
  return url.starts_with("http://") || url.starts_with("https://");
}

json carrierError(const std::string& code, const std::string& title,
                  const std::string& detail = "") {
  return {{"errors",
           json::array({{{"code", code.empty() ? json(nullptr) : json(code)},  // null: allowed
                         {"title", title},
                         {"detail", detail.empty() ? title : detail}}})}};
}

// The first field of `body` Telnyx's request schema does not name, if any: Telnyx refuses
// them, so a gateway that sends one must fail here before it fails in production.
std::optional<std::string> unknownField(const json& body,
                                        std::initializer_list<std::string_view> known) {
  for (const auto& [name, value] : body.items()) {
    if (std::find(known.begin(), known.end(), name) == known.end()) return name;
  }
  return std::nullopt;
}

class Simulator {
 public:
  Simulator(const SimConfig& config, OptOutHandling opt_out_handling)
      : config_(config), state_(opt_out_handling), callbacks_(config) {}

  void routes(Rest::Router& router) {
    using namespace Rest;
    Routes::Post(router, "/v2/messages", Routes::bind(&Simulator::sendMessage, this));
    Routes::Get(router, "/v2/messages/:id", Routes::bind(&Simulator::getMessage, this));
    Routes::Get(router, "/v2/number_lookup/:number", Routes::bind(&Simulator::lookup, this));
    Routes::Get(router, "/v2/available_phone_numbers",
                Routes::bind(&Simulator::searchNumbers, this));
    Routes::Post(router, "/v2/number_orders", Routes::bind(&Simulator::orderNumbers, this));
    Routes::Get(router, "/v2/number_orders", Routes::bind(&Simulator::listOrders, this));
    Routes::Get(router, "/v2/number_orders/:id", Routes::bind(&Simulator::getOrder, this));
    Routes::Get(router, "/v2/phone_numbers", Routes::bind(&Simulator::listNumbers, this));
    Routes::Delete(router, "/v2/phone_numbers/:id", Routes::bind(&Simulator::releaseNumber, this));
    Routes::Get(router, "/v2/phone_numbers/:id", Routes::bind(&Simulator::getNumber, this));
    Routes::Get(router, "/sim/messages", Routes::bind(&Simulator::listMessages, this));
    Routes::Post(router, "/sim/inbound", Routes::bind(&Simulator::inbound, this));
    Routes::Post(router, "/sim/faults", Routes::bind(&Simulator::addFault, this));
    Routes::Delete(router, "/sim/faults", Routes::bind(&Simulator::clearFaults, this));
    Routes::Get(router, "/health", Routes::bind(&Simulator::health, this));
    Routes::Post(router, "/sim/webhook-inbox", Routes::bind(&Simulator::receiveWebhook, this));
    Routes::Get(router, "/sim/webhook-inbox", Routes::bind(&Simulator::listWebhooks, this));
    Routes::Get(router, "/sim/webhook-inbox/tally", Routes::bind(&Simulator::tallyWebhooks, this));
  }

 private:
  // Every /v2 call needs the API key: without it Telnyx answers 401 with code 10009, and so
  // does this, returning true so that the handler stops.
  bool refusedUnauthenticated(const Rest::Request& request, Http::ResponseWriter& writer) {
    auto auth = request.headers().tryGet<Http::Header::Authorization>();
    if (auth && auth->value() == "Bearer " + config_.api_key) return false;
    reply(writer, Http::Code::Unauthorized, carrierError("10009", "Authentication failed"));
    return true;
  }

  // Telnyx's answer over its rate: 429, code 10011, and its three headers, the reset in seconds.
  static void tooManyRequests(Http::ResponseWriter& writer, int reset_seconds) {
    writer.headers()
        .add(std::make_shared<NamedHeader>("x-ratelimit-limit", std::to_string(kSendsPerWindow)))
        .add(std::make_shared<NamedHeader>("x-ratelimit-remaining", "0"))
        .add(std::make_shared<NamedHeader>("x-ratelimit-reset", std::to_string(reset_seconds)));
    reply(writer, Http::Code::Too_Many_Requests,
          carrierError("10011", "Too many requests",
                       "You have exceeded the maximum number of allowed requests."));
  }

  static void notFound(Http::ResponseWriter& writer) {
    reply(writer, Http::Code::Not_Found, carrierError("10005", "Resource not found"));
  }

  void sendMessage(const Rest::Request& request, Http::ResponseWriter writer) {
    if (refusedUnauthenticated(request, writer)) return;
    json body = json::parse(request.body(), nullptr, false);
    if (!body.is_object() || !body.contains("from") || !body.contains("to") ||
        !body.contains("text")) {
      return reply(writer, Http::Code::Unprocessable_Entity,
                   carrierError("10015", "Invalid request"));
    }
    for (const char* field : {"from", "to", "text"}) {  // Telnyx's schema: each is a string
      if (!body[field].is_string()) {
        return reply(
            writer, Http::Code::Unprocessable_Entity,
            carrierError("10015", "Invalid parameter", fmt::format("{} must be a string", field)));
      }
    }
    if (auto field = unknownField(
            body, {"from", "to", "text", "messaging_profile_id", "subject", "media_urls",
                   "webhook_url", "webhook_failover_url", "use_profile_webhooks", "type",
                   "auto_detect", "encoding", "send_at"})) {
      return reply(writer, Http::Code::Unprocessable_Entity,
                   carrierError("10015", "Invalid parameter", "unknown field " + *field));
    }
    std::string from = body["from"], to = body["to"];  // both checked to be text above
    if (int shut_for = state_.windowShutFor(from, to)) return tooManyRequests(writer, shut_for);
    if (body.contains("webhook_url") &&
        !(body["webhook_url"].is_string() && isHttpUrl(body["webhook_url"].get<std::string>()))) {
      return reply(writer, Http::Code::Unprocessable_Entity,
                   carrierError("10015", "Invalid parameter", "webhook_url must be a URL"));
    }
    std::string profile =
        body.contains("messaging_profile_id") && body["messaging_profile_id"].is_string()
            ? body["messaging_profile_id"].get<std::string>()
            : "";
    if (state_.blockedByRule(from, to, profile)) {
      // Telnyx answers its block rules at the API, 409 (developers.telnyx.com/api/errors/40300).
      return reply(writer, Http::Code::Conflict,
                   carrierError("40300", "Blocked due to STOP message",
                                fmt::format("Messages cannot be sent from '{}' to '{}' due to an "
                                            "existing block rule.",
                                            from, to)));
    }
    if (auto fault = state_.takeSendFault(from, to)) {
      if (fault->mode == "throttle") {
        state_.shutRateWindow(*fault);
        return tooManyRequests(writer, fault->reset_seconds);
      }
      if (fault->mode == "refuse")
        return reply(writer, Http::Code::Bad_Request, carrierError(fault->code, "Message refused"));
      if (fault->mode == "error")
        return reply(writer, Http::Code::Internal_Server_Error,
                     carrierError("10007", "Unexpected error"));
      if (fault->mode == "accept_502") {  // taken, then a proxy's answer lost the acceptance
        takeText(body);
        return reply(writer, Http::Code::Bad_Gateway, carrierError("10007", "Bad gateway"));
      }
      // timeout: accept the text (it may reach the handset) but answer too late.
      return answerLater(body, std::move(writer), config_.timeout_fault_ms);
    }
    if (config_.send_latency_ms > 0)
      return answerLater(body, std::move(writer), config_.send_latency_ms);
    acceptText(body, writer);
  }

  // The late answer comes from a thread of its own: sleeping here would stall every connection
  // this reactor thread serves.
  void answerLater(const json& body, Http::ResponseWriter writer, int delay_ms) {
    std::thread([this, body, delay_ms, late = std::move(writer)]() mutable {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
      acceptText(body, late);
    }).detach();
  }

  // The text is taken: the handset gets it and its webhooks follow.
  SimMessage takeText(const json& body) {
    SimMessage message;
    message.id = crypto::uuid4();
    message.from = body["from"];
    message.to = body["to"];
    message.text = body["text"];
    message.created_at = formatIso(std::chrono::system_clock::now());
    message.parts = std::max(1, countSegments(message.text).parts);
    if (body.contains("webhook_url") && body["webhook_url"].is_string())
      message.webhook_url = body["webhook_url"];
    if (auto fault = state_.receiptFaultFor(message.to)) {
      message.status = fault->status;
      message.error_code = fault->code;
    }
    state_.recordMessage(message);
    scheduleReceipt(message);
    return message;
  }

  void acceptText(const json& body, Http::ResponseWriter& writer) {
    SimMessage message = takeText(body);
    reply(writer, Http::Code::Ok,
          {{"data",
            {{"id", message.id},
             {"record_type", "message"},
             {"direction", "outbound"},
             {"from", {{"phone_number", message.from}}},
             {"to", json::array({{{"phone_number", message.to}, {"status", "queued"}}})},
             {"text", message.text},
             {"parts", message.parts},
             {"wait_seconds", state_.queueWaitOf(message.from)}}}});
  }

  // The message as Telnyx reports it, at `status`: in its webhooks, and to
  // GET /v2/messages/{id} (at its final status).
  static json messageReport(const SimMessage& message, const std::string& status) {
    json errors = json::array();
    if (!message.error_code.empty() && status == message.status) {
      errors.push_back(
          {{"code", message.error_code}, {"title", "Delivery failed"}, {"detail", message.status}});
    }
    return {{"id", message.id},
            {"record_type", "message"},
            {"direction", "outbound"},
            {"type", "SMS"},
            {"from", {{"phone_number", message.from}}},
            {"to", json::array({{{"phone_number", message.to}, {"status", status}}})},
            {"text", message.text},
            {"parts", message.parts},
            {"errors", errors}};
  }

  static json webhookEvent(const std::string& type, json payload) {
    return {{"event_type", type},
            {"id", crypto::uuid4()},
            {"occurred_at", formatIso(std::chrono::system_clock::now())},
            {"payload", std::move(payload)},
            {"record_type", "event"}};
  }

  // As Telnyx: message.sent when the text leaves, message.finalized with its last word, to the
  // send's webhook_url if it gave one, else to the messaging profile's URL.
  void scheduleReceipt(const SimMessage& message) {
    callbacks_.post(webhookEvent("message.sent", messageReport(message, "sent")),
                    std::chrono::milliseconds(0), message.webhook_url);
    callbacks_.post(webhookEvent("message.finalized", messageReport(message, message.status)),
                    std::chrono::milliseconds(config_.receipt_delay_ms), message.webhook_url);
  }

  void getMessage(const Rest::Request& request, Http::ResponseWriter writer) {
    if (refusedUnauthenticated(request, writer)) return;
    auto message = state_.message(request.param(":id").as<std::string>());
    if (!message) return notFound(writer);
    reply(writer, Http::Code::Ok, {{"data", messageReport(*message, message->status)}});
  }

  void lookup(const Rest::Request& request, Http::ResponseWriter writer) {
    if (refusedUnauthenticated(request, writer)) return;
    std::string number = e164From(request.param(":number").as<std::string>());
    json data = {
        {"phone_number", number}, {"country_code", "CA"}, {"record_type", "number_lookup"}};
    // As Telnyx: the carrier and its line type only when asked for with type=carrier.
    if (request.query().get("type").value_or("") == "carrier") {
      std::string type = state_.lineTypeOf(number);  // "": null, as Telnyx's schema allows
      data["carrier"] = {{"type", type.empty() ? json(nullptr) : json(type)},
                         {"name", "Simulated Wireless"}};
    }
    reply(writer, Http::Code::Ok, {{"data", data}});
  }

  // Telnyx-style filters: filter[national_destination_code] (area code) and filter[limit].
  static std::string queryValue(const Rest::Request& request, const std::string& name) {
    for (const auto& key : request.query().parameters()) {
      std::string decoded = key;
      for (auto [from, to] : {std::pair{"%5B", "["}, {"%5D", "]"}, {"%5b", "["}, {"%5d", "]"}}) {
        for (size_t pos; (pos = decoded.find(from)) != std::string::npos;)
          decoded.replace(pos, 3, to);
      }
      if (decoded == name) return request.query().get(key).value_or("");
    }
    return "";
  }

  void searchNumbers(const Rest::Request& request, Http::ResponseWriter writer) {
    if (refusedUnauthenticated(request, writer)) return;
    if (state_.takeCountedFault("search")) {
      return reply(writer, Http::Code::Internal_Server_Error,
                   carrierError("10007", "Search unavailable"));
    }
    if (state_.takeCountedFault("search_429")) return tooManyRequests(writer, 1);
    std::string area = queryValue(request, "filter[national_destination_code]");
    if (area.size() != 3 || area.find_first_not_of("0123456789") != std::string::npos) {
      return reply(writer, Http::Code::Unprocessable_Entity,
                   carrierError("10015", "national_destination_code required"));
    }
    int limit = 5;
    try {
      limit = std::clamp(std::stoi(queryValue(request, "filter[limit]")), 1, 50);
    } catch (const std::exception&) {
    }
    // filter[features]=sms,voice (the SDK's comma list): every number here has those two only.
    std::string features = queryValue(request, "filter[features]");
    for (size_t pos; (pos = features.find("%2C")) != std::string::npos;)
      features.replace(pos, 3, ",");
    std::stringstream wanted(features);
    for (std::string feature; std::getline(wanted, feature, ',');) {
      if (!feature.empty() && feature != "sms" && feature != "voice")
        return reply(writer, Http::Code::Ok, {{"data", json::array()}});
    }
    // filter[phone_number_type]: a toll-free code's numbers are toll_free, every other's local.
    const AreaCode* known = areaCodes().find(area);
    std::string type = queryValue(request, "filter[phone_number_type]");
    if (!type.empty() && type != ((known && known->toll_free) ? "toll_free" : "local"))
      return reply(writer, Http::Code::Ok, {{"data", json::array()}});
    auto available = [&](const std::string& number, bool best_effort) {
      return json{{"phone_number", number},
                  {"record_type", "available_phone_number"},
                  {"best_effort", best_effort},
                  {"features", json::array({{{"name", "sms"}}, {{"name", "voice"}}})}};
    };
    json data = json::array();
    // A best_effort fault: a number near the area code asked for, whatever the filter said.
    if (state_.takeCountedFault("search_best_effort")) {
      for (const auto& number : inventoryFor(area == "613" ? "343" : "613")) {
        if (state_.isOrdered(number)) continue;
        data.push_back(available(number, true));
        break;
      }
    }
    for (const auto& number : inventoryFor(area)) {
      if (static_cast<int>(data.size()) >= limit) break;
      if (state_.isOrdered(number)) continue;
      data.push_back(available(number, false));
    }
    reply(writer, Http::Code::Ok, {{"data", data}});
  }

  void orderNumbers(const Rest::Request& request, Http::ResponseWriter writer) {
    if (refusedUnauthenticated(request, writer)) return;
    json body = json::parse(request.body(), nullptr, false);
    std::string number =
        body.is_object() ? body.value("/phone_numbers/0/phone_number"_json_pointer, std::string())
                         : "";
    if (number.empty())
      return reply(writer, Http::Code::Unprocessable_Entity,
                   carrierError("10015", "phone_numbers required"));
    if (auto field = unknownField(body, {"phone_numbers", "messaging_profile_id", "connection_id",
                                         "customer_reference", "billing_group_id"})) {
      return reply(writer, Http::Code::Unprocessable_Entity,
                   carrierError("10015", "Invalid parameter", "unknown field " + *field));
    }
    // Telnyx's CreateNumberOrderRequest makes the profile optional (a number may join one
    // later); when given, it is text.
    const json& profile =
        body.contains("messaging_profile_id") ? body["messaging_profile_id"] : json();
    if (!profile.is_null() && !profile.is_string()) {
      return reply(writer, Http::Code::Unprocessable_Entity,
                   carrierError("10015", "Invalid parameter", "messaging_profile_id must be text"));
    }
    if (state_.takeCountedFault("order")) {
      return reply(writer, Http::Code::Internal_Server_Error,
                   carrierError("10007", "Order failed"));
    }
    auto order = state_.placeOrder(number, body.value("customer_reference", std::string()),
                                   profile.is_string() ? profile.get<std::string>() : "");
    if (!order)  // not in stock, held, or in another pending order
      return reply(writer, Http::Code::Unprocessable_Entity,
                   carrierError("85001", "Number not available"));
    reply(writer, Http::Code::Ok, {{"data", orderReport(*order)}});
  }

  // An order as Telnyx's NumberOrderWithPhoneNumbers gives it, or in a list as its NumberOrder
  // (whose numbers carry only their id and number).
  static json orderReport(const SimOrder& order, bool listed = false) {
    json number = {{"id", order.number_id}, {"phone_number", order.number}};
    if (!listed) {
      number["record_type"] = "number_order_phone_number";
      number["status"] = order.status;
    }
    json report = {{"id", order.id},           {"record_type", "number_order"},
                   {"status", order.status},   {"customer_reference", order.reference},
                   {"phone_numbers_count", 1}, {"phone_numbers", json::array({number})}};
    if (!order.messaging_profile_id.empty())
      report["messaging_profile_id"] = order.messaging_profile_id;
    return report;
  }

  // GET /v2/number_orders/{id}: a pending order may settle when read.
  void getOrder(const Rest::Request& request, Http::ResponseWriter writer) {
    if (refusedUnauthenticated(request, writer)) return;
    auto order = state_.findOrder(request.param(":id").as<std::string>(), "");
    if (!order) return notFound(writer);
    reply(writer, Http::Code::Ok, {{"data", orderReport(*order)}});
  }

  // GET /v2/number_orders?filter[customer_reference]=: how a lost order is found again.
  void listOrders(const Rest::Request& request, Http::ResponseWriter writer) {
    if (refusedUnauthenticated(request, writer)) return;
    std::string reference = queryValue(request, "filter[customer_reference]");
    json data = json::array();
    if (auto order = reference.empty() ? std::nullopt : state_.findOrder("", reference))
      data.push_back(orderReport(*order, true));
    reply(writer, Http::Code::Ok, {{"data", data}, {"meta", pageMeta(data.size())}});
  }

  static json pageMeta(size_t results) {
    return {{"page_number", 1}, {"page_size", 20}, {"total_pages", 1}, {"total_results", results}};
  }

  // A number as Telnyx's PhoneNumberDetailed gives it, with every field its schema requires.
  static json numberReport(const SimNumber& held) {
    return {{"id", held.id},
            {"record_type", "phone_number"},
            {"phone_number", held.number},
            {"status", held.status},
            {"country_iso_alpha2", "CA"},
            {"phone_number_type", held.number.starts_with("+18") ? "toll_free" : "local"},
            {"tags", json::array()},
            {"external_pin", nullptr},
            {"deletion_lock_enabled", false},
            {"created_at", held.created_at},
            {"purchased_at", held.created_at},
            {"messaging_profile_id",
             held.messaging_profile_id.empty() ? json() : json(held.messaging_profile_id)}};
  }

  // DELETE /v2/phone_numbers/{id}: by Telnyx's id for the number, never by the number.
  void releaseNumber(const Rest::Request& request, Http::ResponseWriter writer) {
    if (refusedUnauthenticated(request, writer)) return;
    std::string id = request.param(":id").as<std::string>();
    if (state_.takeCountedFault("release")) {
      return reply(writer, Http::Code::Internal_Server_Error,
                   carrierError("10007", "Release failed"));
    }
    auto held = state_.heldNumberById(id);
    if (!held || state_.takeCountedFault("release_404") || !state_.releaseById(id))
      return notFound(writer);
    SimNumber deleted = *held;
    deleted.status = "deleted";
    json report = numberReport(deleted);
    // Telnyx's PhoneNumberDeletedDetailed: no country, and a PIN that is text when given.
    report.erase("country_iso_alpha2");
    report.erase("external_pin");
    reply(writer, Http::Code::Ok, {{"data", report}});
  }

  // GET /v2/phone_numbers/{id}.
  void getNumber(const Rest::Request& request, Http::ResponseWriter writer) {
    if (refusedUnauthenticated(request, writer)) return;
    auto held = state_.heldNumberById(request.param(":id").as<std::string>());
    if (!held) return notFound(writer);
    reply(writer, Http::Code::Ok, {{"data", numberReport(*held)}});
  }

  // GET /v2/phone_numbers?filter[phone_number]=: the records of a number, with Telnyx's id and
  // status for each. Telnyx's document, in words its schema cannot say: "Requires at least
  // three digits. Non-numerical characters will result in no values being returned."
  void listNumbers(const Rest::Request& request, Http::ResponseWriter writer) {
    if (refusedUnauthenticated(request, writer)) return;
    if (state_.takeCountedFault("listing")) {
      return reply(writer, Http::Code::Internal_Server_Error,
                   carrierError("10007", "Number listing unavailable"));
    }
    std::string filter = queryValue(request, "filter[phone_number]");
    bool digits_only =
        std::all_of(filter.begin(), filter.end(), [](char c) { return c >= '0' && c <= '9'; });
    json data = json::array();
    if (filter.empty() || (digits_only && filter.size() >= 3)) {
      for (const auto& record : state_.numbersMatching(filter))
        data.push_back(numberReport(record));
    }
    reply(writer, Http::Code::Ok, {{"data", data}, {"meta", pageMeta(data.size())}});
  }

  // An E.164 number as it arrives in a path or a query: '+' escaped as %2B, or unescaped and
  // read as a space.
  static std::string e164From(std::string text) {
    if (text.starts_with("%2B") || text.starts_with("%2b")) return "+" + text.substr(3);
    if (text.starts_with(" ")) return "+" + text.substr(1);
    return text;
  }

  void listMessages(const Rest::Request& request, Http::ResponseWriter writer) {
    std::string to = e164From(request.query().get("to").value_or(""));
    json data = json::array();
    for (const auto& m : state_.messages(to)) {
      data.push_back({{"id", m.id},
                      {"from", m.from},
                      {"to", m.to},
                      {"text", m.text},
                      {"parts", m.parts},
                      {"created_at", m.created_at}});
    }
    reply(writer, Http::Code::Ok, {{"data", data}});
  }

  void inbound(const Rest::Request& request, Http::ResponseWriter writer) {
    json body = json::parse(request.body(), nullptr, false);
    if (!body.is_object() || !body.contains("from") || !body.contains("to") ||
        !body.contains("text") || !body["from"].is_string() || !body["to"].is_string() ||
        !body["text"].is_string()) {
      return reply(writer, Http::Code::Unprocessable_Entity,
                   {{"error", "from, to and text are required"}});
    }
    std::string id = crypto::uuid4();
    std::string text = body["text"];
    json payload = {
        {"id", id},
        {"record_type", "message"},
        {"direction", "inbound"},
        {"type", "SMS"},
        {"from", {{"phone_number", body["from"]}}},
        {"to", json::array({{{"phone_number", body["to"]}, {"status", "webhook_delivered"}}})},
        {"text", text},
        {"parts", std::max(1, countSegments(text).parts)},
        {"received_at", formatIso(std::chrono::system_clock::now())},
        {"errors", json::array()}};
    long status = callbacks_.sendNowOrRetry(webhookEvent("message.received", payload));
    // Telnyx's own reply to a stop or start word reaches the handset, from the number texted.
    if (auto auto_reply = state_.autoReplyTo(body["from"], body["to"], text)) {
      SimMessage telnyx_reply;
      telnyx_reply.id = crypto::uuid4();
      telnyx_reply.from = body["to"];
      telnyx_reply.to = body["from"];
      telnyx_reply.text = *auto_reply;
      telnyx_reply.created_at = formatIso(std::chrono::system_clock::now());
      state_.recordMessage(telnyx_reply);
    }
    reply(writer, Http::Code::Accepted, {{"id", id}, {"gateway_status", status}});
  }

  void addFault(const Rest::Request& request, Http::ResponseWriter writer) {
    json body = json::parse(request.body(), nullptr, false);
    if (auto error = state_.addFault(body))
      return reply(writer, Http::Code::Unprocessable_Entity, {{"error", *error}});
    reply(writer, Http::Code::Created, {{"status", "armed"}, {"fault", body}});
  }

  void clearFaults(const Rest::Request&, Http::ResponseWriter writer) {
    state_.clearFaults();
    writer.send(Http::Code::No_Content);
  }

  void health(const Rest::Request&, Http::ResponseWriter writer) {
    reply(writer, Http::Code::Ok, {{"status", "ok"}});
  }

  // A demo webhook receiver for the README walkthrough: keeps what it is sent, newest first.
  void receiveWebhook(const Rest::Request& request, Http::ResponseWriter writer) {
    json headers = json::object();
    for (const auto& [name, raw] : request.headers().rawList()) headers[name] = raw.value();
    json body = json::parse(request.body(), nullptr, false);
    std::lock_guard lock(inbox_mutex_);
    json entry = {{"headers", headers},
                  {"body", body.is_discarded() ? json(request.body()) : body}};
    inbox_.insert(inbox_.begin(), std::move(entry));
    if (inbox_.size() > 200) inbox_.pop_back();
    auto id = request.headers().tryGetRaw("webhook-id");
    if (id && (tally_.size() < kTallyLimit || tally_.contains(id->value()))) tally_[id->value()]++;
    reply(writer, Http::Code::Ok, {{"received", true}});
  }

  void listWebhooks(const Rest::Request&, Http::ResponseWriter writer) {
    std::lock_guard lock(inbox_mutex_);
    reply(writer, Http::Code::Ok, {{"data", inbox_}});
  }

  // Every delivery's webhook-id and how many times it came, for a test that counts thousands
  // (the inbox keeps only the last 200).
  void tallyWebhooks(const Rest::Request&, Http::ResponseWriter writer) {
    std::lock_guard lock(inbox_mutex_);
    reply(writer, Http::Code::Ok, {{"deliveries", tally_}});
  }

  static constexpr size_t kTallyLimit = 1'000'000;
  const SimConfig& config_;
  SimState state_;
  CallbackQueue callbacks_;
  std::mutex inbox_mutex_;
  std::vector<json> inbox_;
  std::map<std::string, int> tally_;
};

}  // namespace
}  // namespace smsgw::sim

int main(int argc, char** argv) {
  using namespace smsgw::sim;
  smsgw::initLogging("carrier-sim");
  SimConfig config;
  CLI::App app{"Carrier simulator"};
  app.add_option("--host", config.host);
  app.add_option("--port", config.port);
  app.add_option("--api-key", config.api_key)->envname("CARRIER_API_KEY");
  app.add_option("--gateway-url", config.gateway_url, "gateway base URL for callbacks")
      ->envname("SIM_GATEWAY_URL");
  app.add_option("--webhook-url", config.webhook_url,
                 "where webhooks go (default: the gateway's /carrier/webhooks)")
      ->envname("SIM_WEBHOOK_URL");
  app.add_option("--signing-key", config.signing_key,
                 "Ed25519 private key that signs webhooks (base64 of the 32-byte seed); the "
                 "default is published, and only a local gateway accepts it")
      ->envname("SIM_WEBHOOK_PRIVATE_KEY");
  app.add_option("--receipt-delay-ms", config.receipt_delay_ms)->envname("SIM_RECEIPT_DELAY_MS");
  app.add_option("--send-latency-ms", config.send_latency_ms,
                 "how long every send takes to answer (a slower carrier, for benchmarks)")
      ->envname("SIM_SEND_LATENCY_MS");
  app.add_option("--opt-out-handling", config.opt_out_handling,
                 "Telnyx's own handling of STOP: off, profile or account (its default)")
      ->envname("SIM_OPT_OUT_HANDLING")
      ->check(CLI::IsMember({"off", "profile", "account"}));
  CLI11_PARSE(app, argc, argv);

  std::signal(SIGTERM, [](int) { g_stop = true; });
  std::signal(SIGINT, [](int) { g_stop = true; });
  Simulator simulator(config, *parseOptOutHandling(config.opt_out_handling));
  Rest::Router router;
  simulator.routes(router);
  Http::Endpoint endpoint(Address(config.host, Port(static_cast<uint16_t>(config.port))));
  endpoint.init(Http::Endpoint::options().threads(8).flags(Tcp::Options::ReuseAddr));
  endpoint.setHandler(router.handler());
  endpoint.serveThreaded();
  spdlog::info("carrier simulator on http://{}:{}", config.host, config.port);
  while (!g_stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  endpoint.shutdown();
  return 0;
}
