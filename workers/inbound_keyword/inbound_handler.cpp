#include "workers/inbound_keyword/inbound_handler.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <optional>

#include "db/ledger.h"
#include "domain/casl.h"
#include "domain/ids.h"
#include "services/compliance/opt_in.h"
#include "services/compliance/platform_texts.h"
#include "services/compliance/records.h"
#include "services/messaging/lifecycle.h"
#include "services/messaging/protection.h"
#include "topics/event_writer.h"
#include "topics/records.h"
#include "workers/inbound_keyword/inbound_decision.h"

namespace smsgw::workers {
namespace {

struct Holder {
  std::string account_id;
  std::string brand;  // the account's name signs automatic replies
  int daily_cap = 0;  // 0: unlimited
};

std::optional<Holder> holderOf(soci::session& sql, const std::string& number) {
  Holder holder;
  sql << "SELECT a.id, a.name, a.inbound_sms_daily_cap FROM phone_numbers p "
         "JOIN accounts a ON a.id = p.account_id WHERE p.phone_number = :n "
         "AND p.status <> 'RELEASED'",
      soci::use(number), soci::into(holder.account_id), soci::into(holder.brand),
      soci::into(holder.daily_cap);
  if (!sql.got_data()) return std::nullopt;
  return holder;
}

int receivedInWindow(soci::session& sql, const std::string& account_id) {
  int received = 0;
  sql << "SELECT count(*) FROM messages WHERE account_id = :a AND direction = 'INBOUND' "
         "AND mode = 'LIVE' AND NOT inbound_capped AND created_at > now() - interval '24 hours'",
      soci::use(account_id), soci::into(received);
  return received;
}

// The inbound charge; an account that cannot pay still receives the text, uncharged.
long long chargeInbound(soci::session& sql, const std::string& account_id,
                        const std::string& message_id, int parts) {
  int price = 0;
  sql << "SELECT cents FROM prices WHERE code = 'sms_inbound_part'", soci::into(price);
  long long cost = static_cast<long long>(price) * parts;
  if (cost <= 0) return 0;
  auto posted = db::postLedgerEntry(sql, {account_id, -cost, "sms_inbound", message_id,
                                          "Inbound SMS, " + std::to_string(parts) + " part(s)"});
  if (posted.outcome == db::LedgerOutcome::InsufficientBalance) {
    spdlog::warn("inbound {} to {} left uncharged: balance too low", message_id, account_id);
    return 0;
  }
  sql << "UPDATE messages SET cost_cents = :c WHERE id = :id", soci::use(cost),
      soci::use(message_id);
  return cost;
}

// account.inbound_sms_capped, at most once per 24 hours (the guarded update decides).
void announceCapOnce(soci::session& sql, const Holder& holder, int received) {
  std::string id;
  sql << "UPDATE accounts SET inbound_sms_capped_notified_at = now() WHERE id = :a AND "
         "(inbound_sms_capped_notified_at IS NULL "
         " OR inbound_sms_capped_notified_at <= now() - interval '24 hours') RETURNING id",
      soci::use(holder.account_id), soci::into(id);
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
  compliance::OptOutDraft opt_out{holder.account_id, "LIVE",    sms.from, sms.to,
                                  reply.whole_reply, message_id};
  compliance::ReplyToOptIn opt_in{holder.account_id, "LIVE", sms.to, sms.from, message_id};
  bool took_effect = false;
  switch (reply.keyword) {
    case Keyword::Stop:
      compliance::declineOptIn(sql, opt_in);
      took_effect = compliance::recordOptOut(sql, opt_out);
      break;
    case Keyword::Start:
      took_effect = compliance::reinstateOptOut(sql, opt_out);
      break;
    case Keyword::Yes:
      compliance::confirmOptIn(sql, opt_in, now);
      break;
    case Keyword::Help:
    case Keyword::None:
      break;
  }
  return keywordOutcome(reply.keyword, took_effect);
}

}  // namespace

topics::Outcome InboundHandler::operator()(const topics::Record& record) {
  auto sms = topics::InboundSms::parse(record.payload);
  KeywordReply reply = readKeyword(sms.text);
  db::Session sql(context_.db);
  soci::transaction tx(*sql);
  auto holder = holderOf(*sql, sms.to);
  if (!holder) {
    spdlog::warn("text {} to {}, a number no account holds: dropped", sms.carrier_message_id,
                 sms.to);
    return topics::Outcome::unchanged();
  }
  int received = receivedInWindow(*sql, holder->account_id);
  bool capped = isCapped(reply.keyword, holder->daily_cap, received);

  std::string id = newId("msg"), inserted;
  int parts = std::max(1, sms.parts), capped_flag = capped ? 1 : 0;
  soci::indicator body_ind = capped ? soci::i_null : soci::i_ok;
  *sql << "INSERT INTO messages (id, account_id, direction, from_number, to_number, body, "
          "body_purged, status, segment_count, mode, carrier_message_id, inbound_capped) "
          "VALUES (:id, :a, 'INBOUND', :f, :t, :b, :capped::int::boolean, 'RECEIVED', :parts, "
          "'LIVE', :cid, :capped2::int::boolean) "
          "ON CONFLICT (carrier_message_id) DO NOTHING RETURNING id",
      soci::use(id), soci::use(holder->account_id), soci::use(sms.from), soci::use(sms.to),
      soci::use(sms.text, body_ind), soci::use(capped_flag), soci::use(parts),
      soci::use(sms.carrier_message_id), soci::use(capped_flag), soci::into(inserted);
  if (!sql->got_data()) {
    spdlog::info("inbound {} already stored; replay ignored", sms.carrier_message_id);
    return topics::Outcome::unchanged();
  }
  if (capped) {
    announceCapOnce(*sql, *holder, received);
  } else {
    long long cost = chargeInbound(*sql, holder->account_id, id, parts);
    KeywordOutcome outcome = actOnKeyword(*sql, *holder, sms, id, reply, context_.clock.now());
    *sql << "UPDATE messages SET keyword_action = :k WHERE id = :id", soci::use(outcome.action),
        soci::use(id);
    topics::raiseEvent(
        *sql,
        {holder->account_id, std::string(messaging::transitionOf(messaging::Move::Receive).event),
         true,
         messaging::receivedEvent({id, sms.from, sms.to}, sms.text, outcome.action, parts, cost)});
    if (outcome.event_type) {
      topics::raiseEvent(
          *sql,
          {holder->account_id,
           *outcome.event_type,
           true,
           {{"phone_number", sms.from}, {"from_number", sms.to}, {"keyword", reply.whole_reply}}});
    }
    if (outcome.reviews_opt_out_rate)
      messaging::reviewOptOutRate(*sql, holder->account_id, policy_);
    if (outcome.auto_reply_keyword) {
      compliance::queuePlatformText(
          *sql, {holder->account_id, "LIVE", sms.to, sms.from, autoReplyText(reply, holder->brand),
                 outcome.auto_reply_keyword});
    }
  }
  tx.commit();
  context_.relay.notify();
  return topics::Outcome::done();
}

}  // namespace smsgw::workers
