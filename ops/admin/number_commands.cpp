// smsgw-admin toll-free and number: toll-free verification status, staff releases and the
// releases the carrier has not confirmed.
#include <soci/soci.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "domain/ids.h"
#include "ops/admin/staff.h"
#include "services/numbers/release.h"

namespace smsgw::admin {
namespace {

bool isVerificationStatus(const std::string& status) {
  static const std::set<std::string> known = {
      "DRAFT",     "AWAITING_PAYMENT", "IN_REVIEW", "CHANGES_REQUESTED",
      "SUBMITTED", "APPROVED",         "REJECTED",  "DECLINED"};
  return known.count(status) > 0;
}

struct HeldNumber {
  std::string id;
  std::string number_type;
};

// A number given by id (pn_…) or E.164; released numbers are not found by E.164.
HeldNumber resolveNumber(soci::session& sql, const std::string& number) {
  HeldNumber held;
  sql << "SELECT id, number_type FROM phone_numbers WHERE id = :n "
         "OR (phone_number = :n2 AND status <> 'RELEASED')",
      soci::use(number), soci::use(number), soci::into(held.id), soci::into(held.number_type);
  if (!sql.got_data()) throw std::runtime_error("no held phone number " + number);
  return held;
}

nlohmann::json phoneNumberResource(soci::session& sql, const std::string& id) {
  std::string text;
  sql << "SELECT api_phone_number(p)::text FROM phone_numbers p WHERE p.id = :id", soci::use(id),
      soci::into(text);
  return nlohmann::json::parse(text);
}

}  // namespace

void setTollFreeVerification(Staff& staff, const std::string& number, const std::string& status,
                             bool new_application) {
  if (!isVerificationStatus(status)) throw std::runtime_error("unknown status " + status);
  db::Session sql(staff.db);
  soci::transaction tx(*sql);
  HeldNumber held = resolveNumber(*sql, number);
  if (held.number_type != "toll_free") throw std::runtime_error(number + " is not toll-free");
  std::string current;
  *sql << "SELECT id FROM toll_free_verifications WHERE phone_number_id = :p "
          "AND cancelled_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE",
      soci::use(held.id), soci::into(current);
  bool has_current = sql->got_data();
  if (has_current && !new_application) {
    *sql << "UPDATE toll_free_verifications SET status = :s, updated_at = now() WHERE id = :id",
        soci::use(status), soci::use(current);
  } else {
    if (has_current) {
      *sql << "UPDATE toll_free_verifications SET cancelled_at = now() WHERE id = :id",
          soci::use(current);
    }
    std::string id = newId("tfv");
    *sql << "INSERT INTO toll_free_verifications (id, phone_number_id, status) "
            "VALUES (:id, :p, :s)",
        soci::use(id), soci::use(held.id), soci::use(status);
  }
  auto resource = phoneNumberResource(*sql, held.id);
  tx.commit();
  std::cout << nlohmann::json{{"phone_number", resource}}.dump() << "\n";
}

void releaseNumberAsStaff(Staff& staff, const std::string& number) {
  std::string id;
  {
    db::Session sql(staff.db);
    id = resolveNumber(*sql, number).id;
  }
  auto result = numbers::releaseNumber(staff.db, staff.carrier, id, numbers::kAdminReleased,
                                       staff.clock.now());
  switch (result.kind) {
    case numbers::ReleaseResult::Kind::Released:
      break;
    case numbers::ReleaseResult::Kind::NotReleasable:
      throw std::runtime_error(number + " is already released");
    case numbers::ReleaseResult::Kind::CarrierRefused:
      throw std::runtime_error("the carrier refused the release (" + result.carrier_code + " " +
                               result.detail + "); the number is unchanged");
    case numbers::ReleaseResult::Kind::Pending:
      throw std::runtime_error(
          "the carrier could not be reached; the number stays RELEASING and "
          "the billing pass retries");
  }
  db::Session sql(staff.db);
  std::cout << nlohmann::json{{"phone_number", phoneNumberResource(*sql, id)}}.dump() << "\n";
}

void listReleasesInDoubt(Staff& staff) {
  db::Session sql(staff.db);
  soci::rowset<std::string> rows =
      (sql->prepare << "SELECT json_build_object('id', id, 'account_id', account_id, "
                       "'phone_number', phone_number, 'carrier_number_id', carrier_number_id, "
                       "'release_reason', release_reason, "
                       "'release_requested_at', iso_ts(release_requested_at))::text "
                       "FROM phone_numbers WHERE status = 'RELEASING' "
                       "ORDER BY release_requested_at, id");
  for (const auto& line : rows) std::cout << line << "\n";
}

}  // namespace smsgw::admin
