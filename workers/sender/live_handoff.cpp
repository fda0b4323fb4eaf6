#include "workers/sender/live_handoff.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <optional>

#include "db/ledger.h"
#include "domain/errors.h"
#include "topics/event_writer.h"
#include "topics/records.h"

namespace smsgw::workers {
namespace {

// Longer than any carrier call (CARRIER_TIMEOUT_MS) can last: a hand-off started earlier than
// this with no outcome belongs to a sender that died.
constexpr int kStaleAfterSeconds = 60;

struct Outgoing {
  std::string id, account_id, from, to, body;
  long long cost_cents = 0;
};

void refund(soci::session& sql, const Outgoing& message, const std::string& why) {
  if (message.cost_cents <= 0) return;
  db::postLedgerEntry(
      sql, {message.account_id, message.cost_cents, "sms_refund", message.id, "Refund: " + why});
  sql << "UPDATE messages SET cost_cents = 0 WHERE id = :id", soci::use(message.id);
}

// FAILED STALE_QUEUED for a hand-off that never settled (message.failed form c: no to, no from).
void failStale(soci::session& sql, const std::string& id) {
  Outgoing message;
  message.id = id;
  sql << "UPDATE messages SET status = 'FAILED', error_code = 'STALE_QUEUED', "
         "error_message = 'Sending was interrupted by a restart; the message was not sent again.', "
         "updated_at = now() WHERE id = :id AND status = 'QUEUED' "
         "RETURNING account_id, cost_cents",
      soci::use(id), soci::into(message.account_id), soci::into(message.cost_cents);
  if (!sql.got_data()) return;
  refund(sql, message, "sending interrupted");
  topics::raiseEvent(sql, {message.account_id,
                           "message.failed",
                           true,
                           {{"message_id", id},
                            {"status", "FAILED"},
                            {"message_status", "FAILED"},
                            {"error_code", "STALE_QUEUED"},
                            {"error_message", "Sending was interrupted by a restart."}}});
}

// Records that the hand-off starts; nothing when it is not ours to send.
std::optional<Outgoing> claim(db::Database& db, const std::string& id) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  Outgoing message;
  message.id = id;
  soci::indicator body_ind = soci::i_null;
  *sql << "UPDATE messages SET handoff_started_at = now(), updated_at = now() WHERE id = :id "
          "AND mode = 'LIVE' AND status = 'QUEUED' AND handoff_started_at IS NULL "
          "RETURNING account_id, from_number, to_number, body, cost_cents",
      soci::use(id), soci::into(message.account_id), soci::into(message.from),
      soci::into(message.to), soci::into(message.body, body_ind), soci::into(message.cost_cents);
  if (sql->got_data()) {
    tx.commit();
    return message;
  }
  int queued = 0, stale = 0;
  *sql << "SELECT (status = 'QUEUED')::int, (handoff_started_at < now() - make_interval(secs => "
          ":s))::int FROM messages WHERE id = :id",
      soci::use(kStaleAfterSeconds), soci::use(id), soci::into(queued), soci::into(stale);
  if (!sql->got_data() || !queued) return std::nullopt;  // settled already: a replay
  if (!stale) {
    // Another sender is calling the carrier for it right now (a rebalance handed us its record).
    throw topics::RetryableError("hand-off of " + id + " in progress elsewhere");
  }
  failStale(*sql, id);
  tx.commit();
  return std::nullopt;
}

void accepted(soci::session& sql, const Outgoing& message, const CarrierSendResult& result) {
  int parts = result.parts;
  std::string updated;
  sql << "UPDATE messages SET status = 'SENDING', carrier_message_id = :cid, sent_at = now(), "
         "segment_count = :parts, updated_at = now() WHERE id = :id AND status = 'QUEUED' "
         "RETURNING id",
      soci::use(result.carrier_message_id), soci::use(parts), soci::use(message.id),
      soci::into(updated);
  if (!sql.got_data()) return;
  topics::raiseEvent(sql, {message.account_id,
                           "message.sent",
                           true,
                           {{"message_id", message.id},
                            {"from", message.from},
                            {"to", message.to},
                            {"status", "SENDING"},
                            {"message_status", "SENDING"},
                            {"carrier_message_id", result.carrier_message_id},
                            {"segment_count", parts},
                            {"cost_cents", message.cost_cents}}});
}

ErrorCode failureCode(const CarrierSendResult& result) {
  switch (result.kind) {
    case CarrierSendResult::Kind::Refused:
      return ErrorCode::CARRIER_ERROR;
    case CarrierSendResult::Kind::Timeout:
      return ErrorCode::CARRIER_TIMEOUT;
    case CarrierSendResult::Kind::Throttled:
    case CarrierSendResult::Kind::Unavailable:
    case CarrierSendResult::Kind::Accepted:
      break;
  }
  return ErrorCode::CARRIER_UNAVAILABLE;
}

// FAILED at hand-off (message.failed form a). A throttled send is CARRIER_THROTTLED: safe to
// resend. A timeout is never retried: the carrier may have sent it.
void failed(soci::session& sql, const Outgoing& message, const CarrierSendResult& result) {
  std::string code = result.kind == CarrierSendResult::Kind::Throttled
                         ? "CARRIER_THROTTLED"
                         : std::string(errorInfo(failureCode(result)).name);
  std::string text(errorInfo(failureCode(result)).message_en);
  if (!result.error_code.empty()) text += " (carrier " + result.error_code + ")";
  std::string updated;
  sql << "UPDATE messages SET status = 'FAILED', error_code = :c, error_message = :m, "
         "updated_at = now() WHERE id = :id AND status = 'QUEUED' RETURNING id",
      soci::use(code), soci::use(text), soci::use(message.id), soci::into(updated);
  if (!sql.got_data()) return;
  refund(sql, message, "the carrier did not take the message");
  topics::raiseEvent(sql, {message.account_id,
                           "message.failed",
                           true,
                           {{"message_id", message.id},
                            {"from", message.from},
                            {"to", message.to},
                            {"status", "FAILED"},
                            {"message_status", "FAILED"},
                            {"error_code", code},
                            {"error_message", text}}});
}

}  // namespace

void handOffLive(WorkerContext& context, CarrierClient& carrier, const std::string& message_id) {
  auto message = claim(context.db, message_id);
  if (!message) {
    context.relay.notify();
    return;
  }
  CarrierSendResult result = carrier.sendMessage(message->from, message->to, message->body);
  db::Session sql(context.db);
  soci::transaction tx(*sql);
  if (result.kind == CarrierSendResult::Kind::Accepted) {
    accepted(*sql, *message, result);
  } else {
    spdlog::warn("carrier did not take {}: {} {}", message_id, result.error_code,
                 result.error_detail);
    failed(*sql, *message, result);
  }
  tx.commit();
  context.relay.notify();
}

}  // namespace smsgw::workers
