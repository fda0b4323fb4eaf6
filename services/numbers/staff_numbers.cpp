#include "services/numbers/staff_numbers.h"

#include <soci/soci.h>

#include <set>

#include "db/json_rows.h"
#include "domain/ids.h"

namespace smsgw::numbers {
namespace {

bool isVerificationStatus(const std::string& status) {
  static const std::set<std::string> known = {
      "DRAFT",     "AWAITING_PAYMENT", "IN_REVIEW", "CHANGES_REQUESTED",
      "SUBMITTED", "APPROVED",         "REJECTED",  "DECLINED"};
  return known.count(status) > 0;
}

}  // namespace

std::optional<std::string> findNumberForStaff(db::Database& db, const std::string& number) {
  db::Session sql(db);
  std::string id;
  *sql << "SELECT id FROM phone_numbers WHERE id = :number "
          "OR (phone_number = :number AND status <> 'RELEASED')",
      soci::use(number, "number"), soci::into(id);
  if (!sql->got_data()) return std::nullopt;
  return id;
}

nlohmann::json phoneNumberForStaff(db::Database& db, const std::string& number_id) {
  db::Session sql(db);
  std::string text;
  *sql << "SELECT api_phone_number(p)::text FROM phone_numbers p WHERE p.id = :id",
      soci::use(number_id, "id"), soci::into(text);
  return nlohmann::json::parse(text);
}

TollFreeOutcome setTollFreeVerification(db::Database& db, const std::string& number_id,
                                        const std::string& status, bool new_application,
                                        TimePoint now) {
  if (!isVerificationStatus(status)) return TollFreeOutcome::UnknownStatus;
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string number_type;
  *sql << "SELECT number_type FROM phone_numbers WHERE id = :id FOR UPDATE",
      soci::use(number_id, "id"), soci::into(number_type);
  if (!sql->got_data()) return TollFreeOutcome::NoSuchNumber;
  if (number_type != "toll_free") return TollFreeOutcome::NotTollFree;
  std::string at = formatIso(now);
  std::string current;
  *sql << "SELECT id FROM toll_free_verifications WHERE phone_number_id = :number "
          "AND cancelled_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE",
      soci::use(number_id, "number"), soci::into(current);
  bool has_current = sql->got_data();
  if (has_current && !new_application) {
    *sql << "UPDATE toll_free_verifications SET status = :status, updated_at = :now::timestamptz "
            "WHERE id = :id",
        soci::use(status, "status"), soci::use(at, "now"), soci::use(current, "id");
  } else {
    if (has_current) {
      *sql << "UPDATE toll_free_verifications SET cancelled_at = :now::timestamptz "
              "WHERE id = :id",
          soci::use(at, "now"), soci::use(current, "id");
    }
    std::string id = newId("tfv");
    *sql << "INSERT INTO toll_free_verifications (id, phone_number_id, status, created_at, "
            "updated_at) VALUES (:id, :number, :status, :now::timestamptz, :now::timestamptz)",
        soci::use(id, "id"), soci::use(number_id, "number"), soci::use(status, "status"),
        soci::use(at, "now");
  }
  tx.commit();
  return TollFreeOutcome::Set;
}

nlohmann::json releasingNumbers(db::Database& db) {
  db::Session sql(db);
  return db::queryJsonArray(*sql,
                            "SELECT json_build_object('id', id, 'account_id', account_id, "
                            "'phone_number', phone_number, 'carrier_number_id', carrier_number_id, "
                            "'release_reason', release_reason, "
                            "'release_requested_at', iso_ts(release_requested_at))::text "
                            "FROM phone_numbers WHERE status = 'RELEASING' "
                            "ORDER BY release_requested_at, id");
}

}  // namespace smsgw::numbers
