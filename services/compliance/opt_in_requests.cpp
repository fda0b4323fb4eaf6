#include "services/compliance/opt_in_requests.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/casl.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "services/compliance/opt_in.h"
#include "services/compliance/platform_texts.h"
#include "services/numbers/sending_number.h"

namespace smsgw::compliance {
namespace {

constexpr const char* kConfirmationJson =
    "SELECT api_opt_in_confirmation(o)::text FROM opt_in_confirmations o WHERE o.id = :id";

}  // namespace

nlohmann::json requestOptIn(db::Database& db, topics::OutboxRelay& relay, const Caller& caller,
                            const OptInRequest& request, TimePoint now) {
  std::string mode(toString(caller.mode));
  db::Session sql(db);
  soci::transaction tx(*sql);
  if (caller.live()) numbers::requireLiveSendingNumber(*sql, caller.account_id, request.from);
  int opted_out = 0;
  *sql << "SELECT count(*) FROM opt_outs WHERE account_id = :a AND mode = :m AND phone_number = :t "
          "AND from_number = :f AND reinstated_at IS NULL",
      soci::use(caller.account_id), soci::use(mode), soci::use(request.to.str()),
      soci::use(request.from.str()), soci::into(opted_out);
  if (opted_out) throw ApiError(ErrorCode::OPT_OUT_BLOCKED);

  // The newer request replaces the older.
  *sql << "UPDATE opt_in_confirmations SET status = 'EXPIRED' WHERE account_id = :a AND mode = :m "
          "AND from_number = :f AND to_number = :t AND status = 'PENDING'",
      soci::use(caller.account_id), soci::use(mode), soci::use(request.from.str()),
      soci::use(request.to.str());
  std::string id = newId("oic");
  std::string expires_at = formatIso(now + std::chrono::days(kOptInLifetimeDays));
  std::string message_id =
      queuePlatformText(*sql,
                        {caller.account_id, mode, request.from.str(), request.to.str(),
                         optInRequestText(request.brand_name, request.language), std::nullopt},
                        now);
  *sql << "INSERT INTO opt_in_confirmations (id, account_id, mode, status, from_number, to_number, "
          "brand_name, language, message_id, expires_at) VALUES (:id, :a, :m, 'PENDING', :f, :t, "
          ":b, :l, :msg, :exp::timestamptz)",
      soci::use(id), soci::use(caller.account_id), soci::use(mode), soci::use(request.from.str()),
      soci::use(request.to.str()), soci::use(request.brand_name), soci::use(request.language),
      soci::use(message_id), soci::use(expires_at);
  auto confirmation = db::queryJson(*sql, kConfirmationJson, id);
  tx.commit();
  relay.notify();
  return *confirmation;
}

nlohmann::json optInPage(db::Database& db, const Caller& caller, int limit, int offset,
                         TimePoint now) {
  db::Session sql(db);
  expireOptIns(*sql, caller.account_id, now);
  return db::pageOfRecords(*sql,
                           "SELECT api_opt_in_confirmation(o)::text FROM opt_in_confirmations o "
                           "WHERE o.account_id = :account AND o.mode = :mode "
                           "ORDER BY o.created_at DESC, o.id DESC LIMIT :limit OFFSET :offset",
                           caller.account_id, std::string(toString(caller.mode)), limit, offset);
}

}  // namespace smsgw::compliance
