#include "services/compliance/consent_check.h"

#include <soci/soci.h>

#include <nlohmann/json.hpp>

namespace smsgw::compliance {

ErrorCode ConsentDecision::refusal() const {
  if (reason == "OPT_OUT") return ErrorCode::OPT_OUT_BLOCKED;
  if (reason == "CONSENT_EXPIRED") return ErrorCode::CONSENT_EXPIRED;
  return ErrorCode::NO_CONSENT;
}

ConsentDecision decideConsentFrom(const ConsentStanding& standing, bool latest_expired) {
  ConsentDecision decision;
  if (standing.opted_out) {
    decision.reason = "OPT_OUT";
  } else if (standing.consent_type) {
    decision.allowed = true;
    decision.consent_type = *standing.consent_type;
  } else {
    // Refused: expired when the latest consent lapsed, missing when there never was one or it
    // was revoked.
    decision.reason = latest_expired ? "CONSENT_EXPIRED" : "NO_CONSENT";
  }
  return decision;
}

void expireLapsedConsents(soci::session& sql, const std::string& account_id,
                          const std::string& mode, const std::vector<std::string>& phone_numbers,
                          TimePoint now) {
  if (phone_numbers.empty()) return;
  std::string numbers = nlohmann::json(phone_numbers).dump(), at = formatIso(now);
  sql << "UPDATE consents SET status = 'EXPIRED' WHERE account_id = :a AND mode = :m AND "
         "phone_number IN (SELECT jsonb_array_elements_text(:numbers::jsonb)) AND status = "
         "'ACTIVE' AND implied_consent_lapsed(consent_type, expires_at, :now::timestamptz)",
      soci::use(account_id, "a"), soci::use(mode, "m"), soci::use(numbers, "numbers"),
      soci::use(at, "now");
}

ConsentDecision decideConsent(soci::session& sql, const std::string& account_id,
                              const std::string& mode, const std::string& phone_number,
                              const ConsentStanding& standing, TimePoint now) {
  if (standing.lapsed) expireLapsedConsents(sql, account_id, mode, {phone_number}, now);
  if (standing.opted_out || standing.consent_type) return decideConsentFrom(standing, false);
  std::string latest_status;
  sql << "SELECT status FROM consents WHERE account_id = :a AND mode = :m AND phone_number = :p "
         "ORDER BY COALESCE(revoked_at, expires_at, granted_at) DESC LIMIT 1",
      soci::use(account_id), soci::use(mode), soci::use(phone_number), soci::into(latest_status);
  return decideConsentFrom(standing, sql.got_data() && latest_status == "EXPIRED");
}

ConsentDecision checkConsent(soci::session& sql, const std::string& account_id,
                             const std::string& mode, const std::string& phone_number,
                             const std::optional<std::string>& from_number, TimePoint now) {
  std::string from = from_number.value_or("");
  std::string now_text = formatIso(now);
  int opted_out = 0, lapsed = 0;
  std::string consent_type;
  soci::indicator consent_ind = soci::i_null;
  sql << "SELECT * FROM consent_standing(:a, :m, :p, :f, :now::timestamptz)", soci::use(account_id),
      soci::use(mode), soci::use(phone_number), soci::use(from), soci::use(now_text),
      soci::into(opted_out), soci::into(consent_type, consent_ind), soci::into(lapsed);
  ConsentStanding standing;
  standing.opted_out = opted_out != 0;
  standing.lapsed = lapsed != 0;
  if (consent_ind == soci::i_ok) standing.consent_type = consent_type;
  return decideConsent(sql, account_id, mode, phone_number, standing, now);
}

}  // namespace smsgw::compliance
