// Double opt-in confirmations from toll-free numbers: the request text goes out (uncharged), the
// subscriber's YES confirms it (the inbound pipeline), STOP declines it, and it lapses after
// seven days. A newer request to the same subscriber from the same number replaces the older.
#include <soci/soci.h>

#include "api/routes/json_rows.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/casl.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "services/compliance/opt_in.h"
#include "services/compliance/platform_texts.h"
#include "services/sending/sending_number.h"

namespace smsgw::api {
namespace {

constexpr const char* kConfirmationJson =
    "SELECT api_opt_in_confirmation(o)::text FROM opt_in_confirmations o WHERE o.id = :id";

ApiResponse create(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  E164 to = requirePhone(requireString(body, "to", 20), "to");
  if (!isCanadianNumber(to)) {
    throw ApiError(ErrorCode::NON_CANADIAN_NUMBER,
                   nlohmann::json::array({{{"field", "to"}, {"message", "must be Canadian"}}}));
  }
  E164 from = requirePhone(requireString(body, "from", 20), "from");
  if (!isTollFreeNumber(from)) {
    throw validationError("from", "must be one of the account's toll-free numbers");
  }
  std::string brand = requireString(body, "brand_name", 60);
  std::string language = optionalString(body, "language", 2).value_or("en");
  if (language != "en" && language != "fr") throw validationError("language", "must be en or fr");

  const Caller& caller = req.who();
  std::string mode(toString(caller.mode));
  db::Session sql(app.db);
  soci::transaction tx(*sql);
  if (caller.live()) sending::requireLiveSendingNumber(*sql, caller.account_id, from);
  int opted_out = 0;
  *sql << "SELECT count(*) FROM opt_outs WHERE account_id = :a AND mode = :m AND phone_number = :t "
          "AND from_number = :f AND reinstated_at IS NULL",
      soci::use(caller.account_id), soci::use(mode), soci::use(to.str()), soci::use(from.str()),
      soci::into(opted_out);
  if (opted_out) throw ApiError(ErrorCode::OPT_OUT_BLOCKED);

  *sql << "UPDATE opt_in_confirmations SET status = 'EXPIRED' WHERE account_id = :a AND mode = :m "
          "AND from_number = :f AND to_number = :t AND status = 'PENDING'",
      soci::use(caller.account_id), soci::use(mode), soci::use(from.str()), soci::use(to.str());
  std::string id = newId("oic");
  std::string expires_at =
      formatIso(app.clock.now() + std::chrono::days(compliance::kOptInLifetimeDays));
  std::string message_id =
      compliance::queuePlatformText(*sql, {caller.account_id, mode, from.str(), to.str(),
                                           optInRequestText(brand, language), std::nullopt});
  *sql << "INSERT INTO opt_in_confirmations (id, account_id, mode, status, from_number, to_number, "
          "brand_name, language, message_id, expires_at) VALUES (:id, :a, :m, 'PENDING', :f, :t, "
          ":b, :l, :msg, :exp::timestamptz)",
      soci::use(id), soci::use(caller.account_id), soci::use(mode), soci::use(from.str()),
      soci::use(to.str()), soci::use(brand), soci::use(language), soci::use(message_id),
      soci::use(expires_at);
  auto confirmation = queryJson(*sql, kConfirmationJson, id);
  tx.commit();
  app.relay.notify();
  return ApiResponse::json(201, *confirmation);
}

ApiResponse list(App& app, ApiRequest& req) {
  Page page = queryPage(req);
  db::Session sql(app.db);
  compliance::expireOptIns(*sql, req.who().account_id, app.clock.now());
  nlohmann::json data =
      pageOfRecords(*sql,
                    "SELECT api_opt_in_confirmation(o)::text FROM opt_in_confirmations o "
                    "WHERE o.account_id = :account AND o.mode = :mode "
                    "ORDER BY o.created_at DESC, o.id DESC LIMIT :limit OFFSET :offset",
                    req, page.limit, page.offset());
  return ApiResponse::json(200, {{"data", data}});
}

}  // namespace

void addOptInConfirmationRoutes(Router& router, App& app) {
  router.add("POST", "/v1/compliance/opt-in-confirmations", needs("compliance:w"),
             [&app](ApiRequest& r) { return create(app, r); });
  router.add("GET", "/v1/compliance/opt-in-confirmations", needs("compliance:r"),
             [&app](ApiRequest& r) { return list(app, r); });
}

}  // namespace smsgw::api
