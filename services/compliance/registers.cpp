#include "services/compliance/registers.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/errors.h"

namespace smsgw::compliance {
namespace {

std::string modeOf(const Caller& caller) {
  return std::string(toString(caller.mode));
}

}  // namespace

nlohmann::json consentPage(db::Database& db, const Caller& caller, const std::string& phone,
                           const std::string& status, int limit, int offset) {
  db::Session sql(db);
  return db::pageOfRecords(*sql,
                           "SELECT api_consent(c)::text FROM consents c WHERE c.account_id = "
                           ":account AND c.mode = :mode AND (:phone = '' OR c.phone_number = "
                           ":phone) AND (:status = '' OR c.status = :status) "
                           "ORDER BY c.created_at DESC, c.id DESC LIMIT :limit OFFSET :offset",
                           caller.account_id, modeOf(caller), limit, offset,
                           {{"phone", phone}, {"status", status}});
}

void recordApiConsent(db::Database& db, const Caller& caller, const ConsentDraft& draft) {
  db::Session sql(db);
  recordConsent(*sql, caller.account_id, modeOf(caller), draft);
}

ConsentDecision checkConsentNow(db::Database& db, const Caller& caller, const std::string& phone,
                                const std::optional<std::string>& from, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  auto decision = checkConsent(*sql, caller.account_id, modeOf(caller), phone, from, now);
  tx.commit();
  return decision;
}

void revokeApiConsents(db::Database& db, const Caller& caller, const std::string& phone,
                       TimePoint now) {
  db::Session sql(db);
  int revoked =
      revokeConsents(*sql, caller.account_id, modeOf(caller), phone, "revoked_through_api", now);
  if (!revoked) throw ApiError(ErrorCode::NOT_FOUND, {{"reason", "no_active_consent"}});
}

nlohmann::json optOutPage(db::Database& db, const Caller& caller, const std::string& phone,
                          const std::string& from, int limit, int offset) {
  db::Session sql(db);
  return db::pageOfRecords(*sql,
                           "SELECT api_opt_out(o)::text FROM opt_outs o WHERE o.account_id = "
                           ":account AND o.mode = :mode AND (:phone = '' OR o.phone_number = "
                           ":phone) AND (:from = '' OR o.from_number = :from) "
                           "ORDER BY o.opted_out_at DESC, o.id DESC LIMIT :limit OFFSET :offset",
                           caller.account_id, modeOf(caller), limit, offset,
                           {{"phone", phone}, {"from", from}});
}

void recordApiOptOut(db::Database& db, const Caller& caller, const std::string& phone,
                     const std::string& from, TimePoint now) {
  db::Session sql(db);
  if (caller.live()) {
    int held = 0;
    *sql << "SELECT count(*) FROM phone_numbers WHERE account_id = :account "
            "AND phone_number = :number AND status <> 'RELEASED'",
        soci::use(caller.account_id, "account"), soci::use(from, "number"), soci::into(held);
    if (!held) throw ApiError(ErrorCode::PHONE_NUMBER_NOT_OWNED, {{"from_number", from}});
  }
  recordOptOut(*sql, {caller.account_id, modeOf(caller), phone, from, std::nullopt, std::nullopt},
               now);
}

}  // namespace smsgw::compliance
