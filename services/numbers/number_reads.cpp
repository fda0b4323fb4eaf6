#include "services/numbers/number_reads.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/errors.h"
#include "domain/ownership.h"

namespace smsgw::numbers {
namespace {

constexpr const char* kPhoneNumberJson =
    "SELECT api_phone_number(p)::text FROM phone_numbers p WHERE p.id = :id";

std::string statusIfOwned(soci::session& sql, const Caller& caller, const std::string& id) {
  std::string owner, status;
  sql << "SELECT account_id, status FROM phone_numbers WHERE id = :id", soci::use(id, "id"),
      soci::into(owner), soci::into(status);
  requireOwnedBy(sql.got_data() ? std::optional(owner) : std::nullopt, caller.account_id);
  return status;
}

}  // namespace

nlohmann::json heldNumbers(db::Database& db, const std::string& account_id) {
  db::Session sql(db);
  return db::queryJsonArray(*sql,
                            "SELECT api_phone_number(p)::text FROM phone_numbers p "
                            "WHERE p.account_id = :a AND p.status <> 'RELEASED' "
                            "ORDER BY p.provisioned_at DESC, p.id DESC",
                            account_id);
}

nlohmann::json phoneNumber(db::Database& db, const Caller& caller, const std::string& id) {
  db::Session sql(db);
  statusIfOwned(*sql, caller, id);
  return *db::queryJson(*sql, kPhoneNumberJson, id);
}

nlohmann::json phoneNumber(db::Database& db, const std::string& id) {
  db::Session sql(db);
  return *db::queryJson(*sql, kPhoneNumberJson, id);
}

std::string ownedNumberStatus(db::Database& db, const Caller& caller, const std::string& id) {
  db::Session sql(db);
  return statusIfOwned(*sql, caller, id);
}

void requireVerifiedOwner(db::Database& db, const std::string& account_id) {
  db::Session sql(db);
  int verified = 0;
  *sql << "SELECT (verified_phone IS NOT NULL)::int FROM accounts WHERE id = :id",
      soci::use(account_id, "id"), soci::into(verified);
  if (!verified) throw ApiError(ErrorCode::ACCOUNT_NOT_VERIFIED);
}

}  // namespace smsgw::numbers
