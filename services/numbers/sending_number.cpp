#include "services/numbers/sending_number.h"

#include <soci/soci.h>

#include "domain/errors.h"

namespace smsgw::numbers {

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
  sql << "SELECT * FROM sending_number_standing(:account, :number)",
      soci::use(account_id, "account"), soci::use(from.str(), "number"),
      soci::into(columns.status, columns.status_ind),
      soci::into(columns.number_type, columns.type_ind),
      soci::into(columns.verification, columns.verification_ind);
  requireUsableSendingNumber(columns.standing(), from);
}

}  // namespace smsgw::numbers
