#include "services/messaging/erased_recipient.h"

#include <soci/soci.h>

#include <vector>

#include "domain/errors.h"
#include "services/messaging/charges.h"
#include "services/messaging/lifecycle.h"
#include "services/messaging/still_queued.h"
#include "topics/event_writer.h"

namespace smsgw::messaging {

int cancelSendsToErasedNumber(soci::session& sql, const std::string& account_id,
                              const std::string& phone, const std::string& token, TimePoint now) {
  const auto& move = transitionOf(Move::CancelledForErasure);
  const ErrorInfo& why = errorInfo(ErrorCode::RECIPIENT_ERASED);
  std::string status(toString(move.to)), code(why.name), text(why.message_en), at = formatIso(now);
  std::vector<std::string> ids(64), froms(64);
  std::vector<long long> costs(64);
  std::vector<int> attempts(64);
  // Locks each row as the sender's claim does: a claim that won goes to the carrier and is kept.
  soci::statement cancelled =
      (sql.prepare << std::string("UPDATE messages SET status = :s, error_code = :c, "
                                  "error_message = :m, updated_at = :now::timestamptz "
                                  "WHERE account_id = :a AND direction = 'OUTBOUND' AND "
                                  "to_number = :p AND handoff_started_at IS NULL AND ") +
                          kStillQueued + " RETURNING id, from_number, cost_cents, send_attempt",
       soci::use(status, "s"), soci::use(code, "c"), soci::use(text, "m"), soci::use(at, "now"),
       soci::use(account_id, "a"), soci::use(phone, "p"), soci::into(ids), soci::into(froms),
       soci::into(costs), soci::into(attempts));
  cancelled.execute(false);
  int count = 0;
  while (cancelled.fetch()) {
    for (size_t i = 0; i < ids.size(); ++i, ++count) {
      refundCharge(sql, {ids[i], account_id, attempts[i], costs[i]}, "recipient erased");
      topics::raiseEvent(
          sql, {account_id, std::string(move.event), true,
                handoffFailedEvent({ids[i], froms[i], token}, ErrorCode::RECIPIENT_ERASED, text)});
    }
  }
  return count;
}

}  // namespace smsgw::messaging
