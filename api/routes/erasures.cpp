// POST /v1/compliance/erasures: right to erasure for a subscriber's number, LIVE keys only
// (services/compliance/erasures.h).
#include "services/compliance/erasures.h"

#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

ApiResponse erase(App& app, ApiRequest& req) {
  if (!req.who().live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  const auto& body = requireObjectBody(req);
  std::string phone = requirePhone(requireString(body, "phone_number", 20), "phone_number").str();
  return ApiResponse::json(
      201, compliance::eraseSubscriber(app.db, req.who().account_id, phone, app.clock.now()));
}

}  // namespace

void addErasureRoutes(Router& router, App& app) {
  router.add("POST", "/v1/compliance/erasures", needs("compliance:d"),
             [&app](ApiRequest& r) { return erase(app, r); });
}

}  // namespace smsgw::api
