// smsgw-admin allowance: list and decide allowance requests.
#include <fmt/format.h>
#include <soci/soci.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "ops/admin/staff.h"

namespace smsgw::admin {

void listAllowanceRequests(Staff& staff, const std::string& status, const std::string& account_id) {
  db::Session sql(staff.db);
  nlohmann::json out = nlohmann::json::array();
  soci::rowset<soci::row> rows =
      (sql->prepare
           << "SELECT r.account_id, api_allowance_request(r)::text FROM allowance_requests r "
              "WHERE (:s = '' OR r.status = :s2) AND (:a = '' OR r.account_id = :a2) "
              "ORDER BY r.created_at DESC LIMIT 200",
       soci::use(status), soci::use(status), soci::use(account_id), soci::use(account_id));
  for (const auto& row : rows) {
    auto request = nlohmann::json::parse(row.get<std::string>(1));
    request["account_id"] = row.get<std::string>(0);
    out.push_back(request);
  }
  std::cout << nlohmann::json{{"allowance_requests", out}}.dump() << "\n";
}

void decideAllowanceRequest(Staff& staff, const std::string& id, bool approve,
                            std::optional<int> granted_limit, const std::string& note) {
  db::Session sql(staff.db);
  soci::transaction tx(*sql);
  std::string account_id, email;
  int requested = 0;
  *sql << "SELECT r.account_id, r.requested_limit, a.email FROM allowance_requests r "
          "JOIN accounts a ON a.id = r.account_id WHERE r.id = :id AND r.status = 'PENDING' "
          "FOR UPDATE OF r, a",
      soci::use(id), soci::into(account_id), soci::into(requested), soci::into(email);
  if (!sql->got_data()) throw std::runtime_error("no PENDING allowance request " + id);
  int granted = granted_limit.value_or(requested);
  if (approve && granted < 1) throw std::runtime_error("--limit must be at least 1");
  soci::indicator granted_ind = approve ? soci::i_ok : soci::i_null;
  soci::indicator note_ind = note.empty() ? soci::i_null : soci::i_ok;
  std::string status = approve ? "APPROVED" : "DENIED";
  *sql << "UPDATE allowance_requests SET status = :s, granted_limit = :g, staff_note = :n, "
          "decided_at = now() WHERE id = :id",
      soci::use(status), soci::use(granted, granted_ind), soci::use(note, note_ind), soci::use(id);
  if (approve) {
    // Never lowers a limit: an approval smaller than today's limit changes nothing.
    *sql << "UPDATE accounts SET phone_number_limit = GREATEST(phone_number_limit, :g) "
            "WHERE id = :a",
        soci::use(granted), soci::use(account_id);
  }
  std::string decided;
  *sql << "SELECT api_allowance_request(r)::text FROM allowance_requests r WHERE r.id = :id",
      soci::use(id), soci::into(decided);
  tx.commit();
  staff.mailer.send(
      {email,
       fmt::format("Your phone-number allowance request was {}", approve ? "approved" : "denied"),
       approve ? fmt::format("You may now hold up to {} phone numbers. {}", granted, note)
               : fmt::format("Your request for {} phone numbers was denied. {}", requested, note)});
  std::cout << nlohmann::json{{"allowance_request", nlohmann::json::parse(decided)},
                              {"account_id", account_id}}
                   .dump()
            << "\n";
}

}  // namespace smsgw::admin
