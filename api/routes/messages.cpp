// Messages: read and list; the send itself is send_message.cpp.
#include <soci/soci.h>

#include <set>

#include "api/routes/json_rows.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

ApiResponse getMessage(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  const auto& id = req.params.at("id");
  std::string owner, mode;
  *sql << "SELECT account_id, mode FROM messages WHERE id = :id", soci::use(id), soci::into(owner),
      soci::into(mode);
  requireOwnedBy(sql->got_data() ? std::optional(owner) : std::nullopt, req.who().account_id);
  if (mode != toString(req.who().mode))
    throw ApiError(ErrorCode::NOT_FOUND);  // TEST and LIVE data stay apart
  return ApiResponse::json(200, *queryJson(*sql, kMessageJson, id));
}

std::string queryFilter(const ApiRequest& req, const char* name) {
  auto it = req.query.find(name);
  return it == req.query.end() ? "" : it->second;
}

ApiResponse listMessages(App& app, ApiRequest& req) {
  auto [page, limit] = queryPage(req);
  std::string status = queryFilter(req, "status"), direction = queryFilter(req, "direction");
  std::string to = queryFilter(req, "to"), from = queryFilter(req, "from");
  for (auto& c : status) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (auto& c : direction) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  static const std::set<std::string> kStatuses = {"",          "QUEUED", "SENDING",     "SENT",
                                                  "DELIVERED", "FAILED", "UNDELIVERED", "RECEIVED"};
  if (!kStatuses.count(status)) throw validationError("status", "unknown message status");
  if (direction != "" && direction != "OUTBOUND" && direction != "INBOUND") {
    throw validationError("direction", "must be OUTBOUND or INBOUND");
  }
  std::string mode(toString(req.who().mode));
  const std::string filter =
      " FROM messages m WHERE m.account_id = :a AND m.mode = :mode AND (:status = '' OR m.status = "
      ":status2) "
      "AND (:direction = '' OR m.direction = :direction2) AND (:to = '' OR m.to_number = :to2) "
      "AND (:from = '' OR m.from_number = :from2)";
  db::Session sql(app.db);
  long long total = 0;
  *sql << "SELECT count(*)" + filter, soci::use(req.who().account_id), soci::use(mode),
      soci::use(status), soci::use(status), soci::use(direction), soci::use(direction),
      soci::use(to), soci::use(to), soci::use(from), soci::use(from), soci::into(total);
  int offset = (page - 1) * limit;
  nlohmann::json data = nlohmann::json::array();
  soci::rowset<std::string> rows =
      (sql->prepare << "SELECT api_message(m)::text" + filter +
                           " ORDER BY m.created_at DESC, m.id LIMIT :limit OFFSET :offset",
       soci::use(req.who().account_id), soci::use(mode), soci::use(status), soci::use(status),
       soci::use(direction), soci::use(direction), soci::use(to), soci::use(to), soci::use(from),
       soci::use(from), soci::use(limit), soci::use(offset));
  for (const auto& text : rows) data.push_back(nlohmann::json::parse(text));
  long long pages = (total + limit - 1) / limit;
  return ApiResponse::json(
      200, {{"data", data},
            {"meta", {{"page", page}, {"limit", limit}, {"total", total}, {"pages", pages}}}});
}

}  // namespace

ApiResponse sendMessage(App& app, ApiRequest& req);  // send_message.cpp

void addMessageRoutes(Router& router, App& app) {
  RouteOptions send = needs("messages:w");
  send.confirms_caller = true;  // in send_standing's read, or alone on an Idempotency-Key replay
  router.add("POST", "/v1/messages", send, [&app](ApiRequest& r) { return sendMessage(app, r); });
  router.add("GET", "/v1/messages", needs("messages:r"),
             [&app](ApiRequest& r) { return listMessages(app, r); });
  router.add("GET", "/v1/messages/{id}", needs("messages:r"),
             [&app](ApiRequest& r) { return getMessage(app, r); });
}

}  // namespace smsgw::api
