// Phone numbers the account holds: provision (charge, carrier order, settle), list, read and
// release. The lifecycle itself lives in services/numbers, shared with the rent-billing worker
// and smsgw-admin; these handlers validate and translate outcomes into the spec's answers.
#include <soci/soci.h>

#include "api/routes/json_rows.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "services/numbers/purchase.h"
#include "services/numbers/release.h"

namespace smsgw::api {
namespace {

constexpr const char* kPhoneNumberJson =
    "SELECT api_phone_number(p)::text FROM phone_numbers p WHERE p.id = :id";

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

void requireVerifiedOwner(soci::session& sql, const std::string& account_id) {
  int verified = 0;
  sql << "SELECT (verified_phone IS NOT NULL)::int FROM accounts WHERE id = :id",
      soci::use(account_id), soci::into(verified);
  if (!verified) throw ApiError(ErrorCode::ACCOUNT_NOT_VERIFIED);
}

ApiResponse provision(App& app, ApiRequest& req) {
  if (!req.who().live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  E164 number = requireNumberToBuy(req);
  const std::string& account_id = req.who().account_id;
  {
    db::Session sql(app.db);
    requireVerifiedOwner(*sql, account_id);
  }
  auto outcome = numbers::purchaseNumber(app.db, app.carrier, account_id, number, app.clock.now());
  switch (outcome.kind) {
    case numbers::PurchaseOutcome::Kind::Completed: {
      db::Session sql(app.db);
      return ApiResponse::json(201, *queryJson(*sql, kPhoneNumberJson, outcome.phone_number_id));
    }
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
  // The carrier's answer was lost: the billing pass asks it again within minutes and either
  // completes the purchase or refunds it. The purchase stays in flight until then.
  throw ApiError(ErrorCode::PROVISIONING_FAILED, {{"purchase_id", outcome.purchase_id},
                                                  {"settlement", "pending"},
                                                  {"reason", "carrier_unreachable"}});
}

ApiResponse list(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  return ApiResponse::json(
      200, {{"data", queryJsonArray(*sql,
                                    "SELECT api_phone_number(p)::text FROM phone_numbers p "
                                    "WHERE p.account_id = :a AND p.status <> 'RELEASED' "
                                    "ORDER BY p.provisioned_at DESC, p.id DESC",
                                    req.who().account_id)}});
}

// The number's status after checking it is the caller's (404 unknown, 403 another account's).
std::string ownedStatus(soci::session& sql, const ApiRequest& req) {
  std::string owner, status;
  sql << "SELECT account_id, status FROM phone_numbers WHERE id = :id",
      soci::use(req.params.at("id")), soci::into(owner), soci::into(status);
  requireOwnedBy(sql.got_data() ? std::optional(owner) : std::nullopt, req.who().account_id);
  return status;
}

ApiResponse get(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  ownedStatus(*sql, req);
  return ApiResponse::json(200, *queryJson(*sql, kPhoneNumberJson, req.params.at("id")));
}

ApiResponse release(App& app, ApiRequest& req) {
  if (!req.who().live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  {
    db::Session sql(app.db);
    if (ownedStatus(*sql, req) == "RELEASED") throw ApiError(ErrorCode::NOT_FOUND);
  }
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
