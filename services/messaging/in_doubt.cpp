#include "services/messaging/in_doubt.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <optional>
#include <vector>

#include "services/messaging/handoff_decision.h"
#include "services/messaging/still_queued.h"

namespace smsgw::messaging {
namespace {

// The send in doubt `condition` finds (locked), as the hand-off knew it.
std::optional<OutgoingMessage> lockInDoubt(soci::session& sql, const std::string& condition,
                                           const std::string& a, const std::string& b,
                                           const std::string& c) {
  OutgoingMessage message;
  soci::indicator body_ind = soci::i_null;
  sql << "SELECT id, account_id, send_attempt, cost_cents, from_number, to_number, body, "
         "part_price_cents FROM messages WHERE carrier_outcome_unknown_since IS NOT NULL AND " +
             std::string(kStillQueued) + " AND " + condition +
             " ORDER BY created_at, id LIMIT 1 FOR UPDATE",
      soci::use(a), soci::use(b), soci::use(c), soci::into(message.charge.id),
      soci::into(message.charge.account_id), soci::into(message.charge.attempt),
      soci::into(message.charge.cost_cents), soci::into(message.from), soci::into(message.to),
      soci::into(message.body, body_ind), soci::into(message.part_price_cents);
  if (!sql.got_data()) return std::nullopt;
  message.verification = body_ind != soci::i_ok;
  return message;
}

}  // namespace

void markInDoubt(soci::session& sql, const OutgoingMessage& message, const SendPolicy& policy,
                 TimePoint now) {
  std::string at = formatIso(now), body_sha256;
  soci::indicator hash_ind = soci::i_null;
  sql << "UPDATE messages SET carrier_outcome_unknown_since = :at::timestamptz, "
         "updated_at = :at2::timestamptz WHERE id = :id AND " +
             std::string(kStillQueued) + " RETURNING body_sha256",
      soci::use(at), soci::use(at), soci::use(message.charge.id), soci::into(body_sha256, hash_ind);
  if (!sql.got_data()) return;
  spdlog::warn("message {}: the carrier's answer was lost; in doubt until its receipt",
               message.charge.id);
  if (hash_ind != soci::i_ok) return;  // a verification code: no body to recognise it by
  std::string early;
  sql << "SELECT payload::text FROM early_receipts WHERE payload->>'from' = :f AND "
         "payload->>'to' = :t AND payload->>'text_sha256' = :h ORDER BY received_at LIMIT 1",
      soci::use(message.from), soci::use(message.to), soci::use(body_sha256), soci::into(early);
  if (sql.got_data()) claimInDoubtByReceipt(sql, topics::CarrierReceipt::parse(early), policy, now);
}

bool claimInDoubtByReceipt(soci::session& sql, const topics::CarrierReceipt& receipt,
                           const SendPolicy& policy, TimePoint now) {
  if (receipt.text_sha256.empty() || receipt.carrier_message_id.empty()) return false;
  int known = 0;
  sql << "SELECT count(*) FROM messages WHERE carrier_message_id = :c",
      soci::use(receipt.carrier_message_id), soci::into(known);
  if (known > 0) return false;
  auto message = lockInDoubt(sql, "from_number = :f AND to_number = :t AND body_sha256 = :h",
                             receipt.from, receipt.to, receipt.text_sha256);
  if (!message) return false;
  CarrierSendResult taken;
  taken.kind = CarrierSendResult::Kind::Accepted;
  taken.carrier_message_id = receipt.carrier_message_id;
  taken.parts = receipt.parts > 0 ? receipt.parts : 1;
  HandoffDecision decision =
      decideHandoff(taken, message->charge.cost_cents, message->part_price_cents);
  spdlog::info("message {}: in doubt, claimed by the carrier's receipt for {}", message->charge.id,
               receipt.carrier_message_id);
  recordCarrierAnswer(sql, *message, taken, decision, policy, now);
  return true;
}

int failInDoubtPastDeadline(db::Database& db, TimePoint since_before, int batch,
                            const SendPolicy& policy, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string before = formatIso(since_before);
  std::vector<std::string> ids(static_cast<size_t>(batch)), froms(ids.size()), tos(ids.size());
  *sql << "SELECT id, from_number, to_number FROM messages WHERE carrier_outcome_unknown_since < "
          ":before::timestamptz AND " +
              std::string(kStillQueued) +
              " ORDER BY carrier_outcome_unknown_since LIMIT :n FOR UPDATE SKIP LOCKED",
      soci::use(before), soci::use(batch), soci::into(ids), soci::into(froms), soci::into(tos);
  CarrierSendResult lost;
  lost.kind = CarrierSendResult::Kind::InDoubt;
  for (size_t i = 0; i < ids.size(); ++i) {
    const std::string& id = ids[i];
    auto message =
        lockInDoubt(*sql, "id = :id AND from_number = :f AND to_number = :t", id, froms[i], tos[i]);
    if (!message) continue;
    HandoffDecision decision =
        decideHandoff(lost, message->charge.cost_cents, message->part_price_cents);
    decision.in_doubt = false;  // its time is up: the failure stands
    spdlog::warn("message {}: no receipt claimed it by the in-doubt deadline; failed, refunded",
                 id);
    recordCarrierAnswer(*sql, *message, lost, decision, policy, now);
  }
  tx.commit();
  return static_cast<int>(ids.size());
}

}  // namespace smsgw::messaging
