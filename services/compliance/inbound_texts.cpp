#include "services/compliance/inbound_texts.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <optional>

#include "adapters/metrics.h"
#include "db/error_text.h"
#include "domain/casl.h"
#include "domain/sms_segments.h"
#include "services/compliance/inbound_decision.h"
#include "services/compliance/opt_in.h"
#include "services/compliance/platform_texts.h"
#include "services/compliance/records.h"
#include "services/messaging/inbound_messages.h"
#include "services/messaging/protection.h"
#include "topics/event_writer.h"

namespace smsgw::compliance {
namespace {

struct Holder {
  std::string account_id;
  std::string brand;  // signs automatic replies (domain/casl.h textSignature); may be empty
  int daily_cap = 0;  // 0: unlimited
};

std::optional<Holder> holderOf(soci::session& sql, const std::string& number) {
  Holder holder;
  std::string name, sender_name;
  soci::indicator sender_ind = soci::i_null;
  sql << "SELECT a.id, a.name, a.sender_name, a.inbound_sms_daily_cap FROM phone_numbers p "
         "JOIN accounts a ON a.id = p.account_id WHERE p.phone_number = :number "
         "AND p.status <> 'RELEASED'",
      soci::use(number, "number"), soci::into(holder.account_id), soci::into(name),
      soci::into(sender_name, sender_ind), soci::into(holder.daily_cap);
  if (!sql.got_data()) return std::nullopt;
  holder.brand =
      textSignature(name, sender_ind == soci::i_ok ? std::optional(sender_name) : std::nullopt);
  return holder;
}

// account.inbound_sms_capped, at most once per 24 hours (the guarded update decides).
void announceCapOnce(soci::session& sql, const Holder& holder, int received, TimePoint now) {
  std::string id, at = formatIso(now);
  sql << "UPDATE accounts SET inbound_sms_capped_notified_at = :now::timestamptz WHERE id = :a "
         "AND (inbound_sms_capped_notified_at IS NULL OR inbound_sms_capped_notified_at <= "
         ":now::timestamptz - interval '24 hours') RETURNING id",
      soci::use(at, "now"), soci::use(holder.account_id, "a"), soci::into(id);
  if (!sql.got_data()) return;
  topics::raiseEvent(
      sql, {holder.account_id,
            "account.inbound_sms_capped",
            true,
            {{"cap", holder.daily_cap}, {"window_hours", 24}, {"received_in_window", received}}});
}

// Acts on the keyword: STOP records an opt-out (and declines a pending opt-in), START
// reinstates one, YES confirms an opt-in.
KeywordOutcome actOnKeyword(soci::session& sql, const Holder& holder, const topics::InboundSms& sms,
                            const std::string& message_id, const KeywordReply& reply,
                            TimePoint now) {
  OptOutDraft opt_out{holder.account_id, "LIVE", sms.from, sms.to, reply.whole_reply, message_id};
  ReplyToOptIn opt_in{holder.account_id, "LIVE", sms.to, sms.from, message_id};
  bool took_effect = false;
  switch (reply.keyword) {
    case Keyword::Stop:
      declineOptIn(sql, opt_in);
      took_effect = recordOptOut(sql, opt_out, now);
      break;
    case Keyword::Start:
      took_effect = reinstateOptOut(sql, opt_out, now);
      break;
    case Keyword::Yes:
      confirmOptIn(sql, opt_in, now);
      break;
    case Keyword::Help:
    case Keyword::None:
      break;
  }
  return keywordOutcome(reply.keyword, took_effect);
}

// Queues the automatic reply apart from the keyword's action, under a savepoint: a reply that
// cannot be written (issue 49: one PostgreSQL refused took the STOP down with it) is logged and
// counted, and the opt-out, the inbound text and its events still commit. The database being
// away is not the reply's fault: that failure goes up, and the whole text is tried again.
void queueAutoReply(soci::session& sql, const PlatformText& reply, TimePoint now) {
  sql << "SAVEPOINT auto_reply";
  try {
    queuePlatformText(sql, reply, now);
  } catch (const std::exception& e) {
    if (db::isTransient(e)) throw;
    sql << "ROLLBACK TO SAVEPOINT auto_reply";
    spdlog::error("automatic {} reply to {} from {} not queued; the keyword's action stands: {}",
                  reply.auto_reply_keyword.value_or(""), reply.to, reply.from,
                  db::describeError(e));
    metrics::autoReplyNotQueued(reply.auto_reply_keyword.value_or(""));
  }
  sql << "RELEASE SAVEPOINT auto_reply";
}

}  // namespace

InboundOutcome receiveText(db::Database& db, const topics::InboundSms& sms,
                           const SendPolicy& policy, TimePoint now) {
  KeywordReply reply = readKeyword(sms.text);
  db::Session sql(db);
  soci::transaction tx(*sql);
  auto holder = holderOf(*sql, sms.to);
  if (!holder) return InboundOutcome::NoHolder;
  int received = messaging::inboundReceivedInWindow(*sql, holder->account_id, now);
  int parts = receivedParts(sms.text);  // ours to count: the carrier's figure is not charged
  if (parts != sms.parts) {
    spdlog::info("inbound {}: the carrier counted {} parts, the text is {}", sms.carrier_message_id,
                 sms.parts, parts);
  }
  messaging::InboundText text{holder->account_id,
                              sms.from,
                              sms.to,
                              sms.text,
                              parts,
                              sms.carrier_message_id,
                              isCapped(reply.keyword, holder->daily_cap, received)};
  auto id = messaging::storeInbound(*sql, text);
  if (!id) return InboundOutcome::Replayed;
  if (text.capped) {
    announceCapOnce(*sql, *holder, received, now);
  } else {
    long long cost = messaging::chargeInbound(*sql, holder->account_id, *id, text.parts);
    KeywordOutcome outcome = actOnKeyword(*sql, *holder, sms, *id, reply, now);
    messaging::announceInbound(*sql, *id, text, outcome.action, cost);
    if (outcome.event_type) {
      topics::raiseEvent(
          *sql,
          {holder->account_id,
           *outcome.event_type,
           true,
           {{"phone_number", sms.from}, {"from_number", sms.to}, {"keyword", reply.whole_reply}}});
    }
    if (outcome.reviews_opt_out_rate)
      messaging::reviewOptOutRate(*sql, holder->account_id, policy, now);
    if (outcome.auto_reply_keyword) {
      queueAutoReply(*sql,
                     {holder->account_id, "LIVE", sms.to, sms.from,
                      autoReplyText(reply, holder->brand), outcome.auto_reply_keyword},
                     now);
    }
  }
  tx.commit();
  return InboundOutcome::Stored;
}

}  // namespace smsgw::compliance
