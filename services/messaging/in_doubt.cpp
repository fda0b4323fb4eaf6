#include "services/messaging/in_doubt.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <optional>
#include <vector>

#include "services/messaging/handoff_decision.h"
#include "services/messaging/still_queued.h"

namespace smsgw::messaging {
namespace {

// What the hand-off knew of a send in doubt, as the queries below select it.
constexpr const char* kOutgoingColumns =
    "SELECT id, account_id, send_attempt, cost_cents, from_number, to_number, body, "
    "part_price_cents, is_verification::int FROM messages WHERE carrier_outcome_unknown_since IS "
    "NOT NULL AND ";

OutgoingMessage outgoingOf(const soci::row& row) {
  OutgoingMessage message;
  message.charge = {row.get<std::string>(0), row.get<std::string>(1), row.get<int>(2),
                    row.get<long long>(3)};
  message.from = row.get<std::string>(4);
  message.to = row.get<std::string>(5);
  // The message's kind, not its body: an erasure purges bodies of what the carrier already has.
  message.verification = row.get<int>(8) != 0;
  if (row.get_indicator(6) == soci::i_ok) message.body = row.get<std::string>(6);
  message.part_price_cents = row.get<int>(7);
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
  std::optional<OutgoingMessage> message;
  {
    soci::rowset<soci::row> rows =
        (sql.prepare << std::string(kOutgoingColumns) + kStillQueued +
                            " AND from_number = :f AND to_number = :t AND body_sha256 = :h "
                            "ORDER BY created_at, id LIMIT 1 FOR UPDATE",
         soci::use(receipt.from), soci::use(receipt.to), soci::use(receipt.text_sha256));
    for (const auto& row : rows) message = outgoingOf(row);
  }
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
  std::vector<OutgoingMessage> expired;
  {
    soci::rowset<soci::row> rows =
        (sql->prepare
             << std::string(kOutgoingColumns) + kStillQueued +
                    " AND carrier_outcome_unknown_since < :before::timestamptz "
                    "ORDER BY carrier_outcome_unknown_since LIMIT :n FOR UPDATE SKIP LOCKED",
         soci::use(before), soci::use(batch));
    for (const auto& row : rows) expired.push_back(outgoingOf(row));
  }
  CarrierSendResult lost;
  lost.kind = CarrierSendResult::Kind::InDoubt;
  for (const auto& message : expired) {
    HandoffDecision decision =
        decideHandoff(lost, message.charge.cost_cents, message.part_price_cents);
    decision.in_doubt = false;  // its time is up: the failure stands
    spdlog::warn("message {}: no receipt claimed it by the in-doubt deadline; failed, refunded",
                 message.charge.id);
    recordCarrierAnswer(*sql, message, lost, decision, policy, now);
  }
  tx.commit();
  return static_cast<int>(expired.size());
}

}  // namespace smsgw::messaging
