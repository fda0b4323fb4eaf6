#include "services/compliance/opt_in.h"

#include <soci/soci.h>

#include "services/compliance/records.h"

namespace smsgw::compliance {

void expireOptIns(soci::session& sql, const std::string& account_id, TimePoint now) {
  std::string now_text = formatIso(now);
  sql << "UPDATE opt_in_confirmations SET status = 'EXPIRED' WHERE account_id = :a "
         "AND status = 'PENDING' AND expires_at <= :now::timestamptz",
      soci::use(account_id), soci::use(now_text);
}

std::optional<std::string> confirmOptIn(soci::session& sql, const ReplyToOptIn& reply,
                                        TimePoint now) {
  expireOptIns(sql, reply.account_id, now);
  std::string id, brand, now_text = formatIso(now);
  sql << "UPDATE opt_in_confirmations SET status = 'CONFIRMED', confirmed_at = :now::timestamptz, "
         "reply_message_id = :msg WHERE account_id = :a AND mode = :m AND from_number = :f "
         "AND to_number = :t AND status = 'PENDING' RETURNING id, brand_name",
      soci::use(now_text), soci::use(reply.reply_message_id), soci::use(reply.account_id),
      soci::use(reply.mode), soci::use(reply.account_number), soci::use(reply.subscriber),
      soci::into(id), soci::into(brand);
  if (!sql.got_data()) return std::nullopt;

  int marked = 0;
  sql << "WITH marked AS (UPDATE consents SET double_opt_in_confirmed_at = :now::timestamptz, "
         "double_opt_in_confirmation_id = :id WHERE account_id = :a AND mode = :m "
         "AND phone_number = :p AND status = 'ACTIVE' RETURNING 1) SELECT count(*) FROM marked",
      soci::use(now_text), soci::use(id), soci::use(reply.account_id), soci::use(reply.mode),
      soci::use(reply.subscriber), soci::into(marked);
  if (!marked) {
    // A YES to a request naming the brand is express consent given by text.
    ConsentDraft draft;
    draft.phone_number = reply.subscriber;
    draft.consent_type = "EXPRESS";
    draft.source_description = "Replied YES by SMS to a double opt-in request from " + brand +
                               " (" + reply.account_number + ")";
    std::string consent_id = recordConsent(sql, reply.account_id, reply.mode, draft);
    sql << "UPDATE consents SET double_opt_in_confirmed_at = :now::timestamptz, "
           "double_opt_in_confirmation_id = :oic WHERE id = :id",
        soci::use(now_text), soci::use(id), soci::use(consent_id);
  }
  return id;
}

void declineOptIn(soci::session& sql, const ReplyToOptIn& reply) {
  sql << "UPDATE opt_in_confirmations SET status = 'DECLINED', reply_message_id = :msg "
         "WHERE account_id = :a AND mode = :m AND from_number = :f AND to_number = :t "
         "AND status = 'PENDING'",
      soci::use(reply.reply_message_id), soci::use(reply.account_id), soci::use(reply.mode),
      soci::use(reply.account_number), soci::use(reply.subscriber);
}

}  // namespace smsgw::compliance
