// Opt-outs recorded by the account through the API (keyword opt-outs come from the inbound
// pipeline). An opt-out blocks sends from that number to that subscriber until a START.
// Recording one through the API raises no opt_out.recorded event (spec "Opt-out").
#include <soci/soci.h>

#include "api/routes/json_rows.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "services/compliance/records.h"

namespace smsgw::api {
namespace {

std::string queryPhone(const ApiRequest& req, const char* name) {
  auto it = req.query.find(name);
  if (it == req.query.end() || it->second.empty()) return "";
  return requirePhone(it->second, name).str();
}

ApiResponse list(App& app, ApiRequest& req) {
  std::string phone = queryPhone(req, "phone_number"), from = queryPhone(req, "from_number");
  Page page = queryPage(req);
  db::Session sql(app.db);
  nlohmann::json data =
      pageOfRecords(*sql,
                    "SELECT api_opt_out(o)::text FROM opt_outs o WHERE o.account_id = :account "
                    "AND o.mode = :mode AND (:phone = '' OR o.phone_number = :phone) "
                    "AND (:from = '' OR o.from_number = :from) "
                    "ORDER BY o.opted_out_at DESC, o.id DESC LIMIT :limit OFFSET :offset",
                    req, page.limit, page.offset(), {{"phone", phone}, {"from", from}});
  return ApiResponse::json(200, {{"data", data}});
}

ApiResponse create(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  std::string phone = requirePhone(requireString(body, "phone_number", 20), "phone_number").str();
  std::string from = requirePhone(requireString(body, "from_number", 20), "from_number").str();
  const Caller& caller = req.who();
  db::Session sql(app.db);
  if (caller.live()) {
    int held = 0;
    *sql << "SELECT count(*) FROM phone_numbers WHERE account_id = :a AND phone_number = :n "
            "AND status <> 'RELEASED'",
        soci::use(caller.account_id), soci::use(from), soci::into(held);
    if (!held) throw ApiError(ErrorCode::PHONE_NUMBER_NOT_OWNED, {{"from_number", from}});
  }
  compliance::recordOptOut(*sql, {caller.account_id, std::string(toString(caller.mode)), phone,
                                  from, std::nullopt, std::nullopt});
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
