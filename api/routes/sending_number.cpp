#include "api/routes/sending_number.h"

#include <soci/soci.h>

#include "domain/errors.h"

namespace smsgw::api {

void requireLiveSendingNumber(soci::session& sql, const std::string& account_id, const E164& from) {
  std::string status, number_type, verification;
  soci::indicator verification_ind = soci::i_null;
  sql << "SELECT p.status, p.number_type, api_phone_number(p)->'toll_free_verification'->>'status' "
         "FROM phone_numbers p WHERE p.account_id = :a AND p.phone_number = :n "
         "AND p.status IN ('ACTIVE', 'SUSPENDED')",
      soci::use(account_id), soci::use(from.str()), soci::into(status), soci::into(number_type),
      soci::into(verification, verification_ind);
  if (!sql.got_data()) throw ApiError(ErrorCode::PHONE_NUMBER_NOT_OWNED, {{"from", from.str()}});
  if (status == "SUSPENDED")
    throw ApiError(ErrorCode::PHONE_NUMBER_SUSPENDED, {{"from", from.str()}});
  if (number_type == "toll_free" &&
      (verification_ind == soci::i_null || verification != "APPROVED")) {
    throw ApiError(ErrorCode::FORBIDDEN,
                   {{"reason", "toll_free_verification_not_approved"},
                    {"toll_free_verification_status", verification_ind == soci::i_null
                                                          ? nlohmann::json(nullptr)
                                                          : nlohmann::json(verification)}});
  }
}

}  // namespace smsgw::api
