#include "api/routes/sending_number.h"

#include <soci/soci.h>

#include "domain/errors.h"

namespace smsgw::api {

// The verification is only looked for on toll-free numbers, the ones it applies to.
const char* const kSendingNumberStandingColumns =
    "p.status, p.number_type, CASE WHEN p.number_type = 'toll_free' THEN (SELECT v.status FROM "
    "toll_free_verifications v WHERE v.phone_number_id = p.id AND v.cancelled_at IS NULL "
    "ORDER BY v.created_at DESC, v.id DESC LIMIT 1) END";

SendingNumberStanding SendingNumberColumns::standing() const {
  SendingNumberStanding out;
  out.held = status_ind == soci::i_ok;
  if (out.held) {
    out.status = status;
    out.number_type = number_type;
  }
  if (verification_ind == soci::i_ok) out.toll_free_verification = verification;
  return out;
}

void requireUsableSendingNumber(const SendingNumberStanding& standing, const E164& from) {
  if (!standing.held) throw ApiError(ErrorCode::PHONE_NUMBER_NOT_OWNED, {{"from", from.str()}});
  if (standing.status == "SUSPENDED")
    throw ApiError(ErrorCode::PHONE_NUMBER_SUSPENDED, {{"from", from.str()}});
  const auto& verification = standing.toll_free_verification;
  if (standing.number_type == "toll_free" && verification.value_or("") != "APPROVED") {
    throw ApiError(ErrorCode::FORBIDDEN,
                   {{"reason", "toll_free_verification_not_approved"},
                    {"toll_free_verification_status",
                     verification ? nlohmann::json(*verification) : nlohmann::json(nullptr)}});
  }
}

void requireLiveSendingNumber(soci::session& sql, const std::string& account_id, const E164& from) {
  SendingNumberColumns columns;
  sql << std::string("SELECT ") + kSendingNumberStandingColumns +
             " FROM phone_numbers p WHERE p.account_id = :a AND p.phone_number = :n "
             "AND p.status IN ('ACTIVE', 'SUSPENDED')",
      soci::use(account_id), soci::use(from.str()), soci::into(columns.status, columns.status_ind),
      soci::into(columns.number_type, columns.type_ind),
      soci::into(columns.verification, columns.verification_ind);
  requireUsableSendingNumber(columns.standing(), from);
}

}  // namespace smsgw::api
