// Opt-outs recorded by the account through the API (keyword opt-outs come from the inbound
// pipeline). An opt-out blocks sends from that number to that subscriber until a START.
// Recording one through the API raises no opt_out.recorded event (spec "Opt-out").
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "services/compliance/registers.h"

namespace smsgw::api {
namespace {

ApiResponse list(App& app, ApiRequest& req) {
  std::string phone = queryPhone(req, "phone_number"), from = queryPhone(req, "from_number");
  Page page = queryPage(req);
  return ApiResponse::json(200, {{"data", compliance::optOutPage(app.db, req.who(), phone, from,
                                                                 page.limit, page.offset())}});
}

ApiResponse create(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  std::string phone = requirePhone(requireString(body, "phone_number", 20), "phone_number").str();
  std::string from = requirePhone(requireString(body, "from_number", 20), "from_number").str();
  compliance::recordApiOptOut(app.db, req.who(), phone, from, app.clock.now());
  return ApiResponse::json(201, {{"status", "opted_out"}});
}

}  // namespace

void addOptOutRoutes(Router& router, App& app) {
  router.add("GET", "/v1/compliance/opt-outs", needs("compliance:r"),
             [&app](ApiRequest& r) { return list(app, r); });
  router.add("POST", "/v1/compliance/opt-outs", needs("compliance:w"),
             [&app](ApiRequest& r) { return create(app, r); });
}

}  // namespace smsgw::api
