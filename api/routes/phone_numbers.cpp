// Phone numbers the account holds: provision (charge, carrier order, settle), list, read and
// release. The lifecycle itself lives in services/numbers, shared with the rent-billing worker
// and smsgw-admin; these handlers validate and translate outcomes into the spec's answers.
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "services/numbers/number_reads.h"
#include "services/numbers/purchase.h"
#include "services/numbers/release.h"

namespace smsgw::api {
namespace {

E164 requireNumberToBuy(const ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  std::string text = requireString(body, "phone_number", 20);
  auto number = E164::parse(text);
  if (!number) throw validationError("phone_number", "must be an E.164 number from a search");
  if (text.starts_with("+1800")) throw ApiError(ErrorCode::TOLLFREE_800_COMING_SOON);
  if (!isCanadianNumber(*number)) {
    throw ApiError(
        ErrorCode::NON_CANADIAN_NUMBER,
        nlohmann::json::array({{{"field", "phone_number"}, {"message", "must be Canadian"}}}));
  }
  return *number;
}

ApiResponse provision(App& app, ApiRequest& req) {
  if (!req.who().live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  E164 number = requireNumberToBuy(req);
  const std::string& account_id = req.who().account_id;
  numbers::requireVerifiedOwner(app.db, account_id);
  auto outcome = numbers::purchaseNumber(app.db, app.carrier, account_id, number, app.clock.now());
  switch (outcome.kind) {
    case numbers::PurchaseOutcome::Kind::Completed:
      return ApiResponse::json(201, numbers::phoneNumber(app.db, outcome.phone_number_id));
    case numbers::PurchaseOutcome::Kind::Failed:
      throw ApiError(
          ErrorCode::PROVISIONING_FAILED,
          {{"purchase_id", outcome.purchase_id},
           {"carrier_code", outcome.carrier_code.empty() ? nlohmann::json(nullptr)
                                                         : nlohmann::json(outcome.carrier_code)},
           {"refunded_cents", outcome.charged_cents}});
    case numbers::PurchaseOutcome::Kind::Pending:
      break;
  }
  // The carrier's order is pending, or its answer was lost: the billing pass asks the carrier
  // again within minutes and completes the purchase or refunds it when the order settles. The
  // purchase stays in flight until then.
  throw ApiError(ErrorCode::PROVISIONING_FAILED, {{"purchase_id", outcome.purchase_id},
                                                  {"settlement", "pending"},
                                                  {"reason", outcome.pending_reason}});
}

ApiResponse list(App& app, ApiRequest& req) {
  return ApiResponse::json(200, {{"data", numbers::heldNumbers(app.db, req.who().account_id)}});
}

ApiResponse get(App& app, ApiRequest& req) {
  return ApiResponse::json(200, numbers::phoneNumber(app.db, req.who(), req.params.at("id")));
}

ApiResponse release(App& app, ApiRequest& req) {
  if (!req.who().live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  if (numbers::ownedNumberStatus(app.db, req.who(), req.params.at("id")) == "RELEASED")
    throw ApiError(ErrorCode::NOT_FOUND);
  auto result = numbers::releaseNumber(app.db, app.carrier, req.params.at("id"),
                                       numbers::kCustomerReleased, app.clock.now());
  switch (result.kind) {
    case numbers::ReleaseResult::Kind::Released:
      return ApiResponse::noContent();
    case numbers::ReleaseResult::Kind::NotReleasable:
      throw ApiError(ErrorCode::NOT_FOUND);  // released meanwhile
    case numbers::ReleaseResult::Kind::CarrierRefused:
      throw ApiError(
          ErrorCode::RELEASE_FAILED,
          {{"carrier_code", result.carrier_code.empty() ? nlohmann::json(nullptr)
                                                        : nlohmann::json(result.carrier_code)}});
    case numbers::ReleaseResult::Kind::Pending:
      break;
  }
  throw ApiError(ErrorCode::RELEASE_FAILED,
                 {{"status", "RELEASING"}, {"reason", "carrier_unreachable"}, {"retrying", true}});
}

}  // namespace

void addPhoneNumberRoutes(Router& router, App& app) {
  router.add("GET", "/v1/phone-numbers", needs("phone_numbers:r"),
             [&app](ApiRequest& r) { return list(app, r); });
  // Buying and releasing wait on the carrier.
  router.add("POST", "/v1/phone-numbers", onSlowLane(needs("phone_numbers:w")),
             [&app](ApiRequest& r) { return provision(app, r); });
  router.add("GET", "/v1/phone-numbers/{id}", needs("phone_numbers:r"),
             [&app](ApiRequest& r) { return get(app, r); });
  router.add("DELETE", "/v1/phone-numbers/{id}", onSlowLane(needs("phone_numbers:d")),
             [&app](ApiRequest& r) { return release(app, r); });
}

}  // namespace smsgw::api
