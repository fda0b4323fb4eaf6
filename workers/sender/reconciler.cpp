#include "workers/sender/reconciler.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <vector>

#include "adapters/metrics.h"
#include "db/outbox.h"
#include "services/messaging/receipt_decision.h"
#include "topics/catalogue.h"
#include "topics/records.h"
#include "workers/sender/handoff_decision.h"
#include "workers/sender/live_handoff.h"

namespace smsgw::workers {
namespace {

// Records that leave through the outbox are examined in a window behind their wait: each is
// looked at in a few passes as it comes of age, never again (a day of events is not re-read
// every pass).
std::chrono::seconds windowOf(const ReconcilerSettings& settings) {
  auto passes = std::chrono::duration_cast<std::chrono::seconds>(settings.interval * 3);
  return std::max(passes, std::chrono::seconds(60));
}

std::string isoBefore(TimePoint now, std::chrono::seconds ago) {
  return formatIso(now - ago);
}

// The claim: true when this pass may fix the thing, which nobody fixed within `wait`.
bool claimFix(soci::session& sql, const char* kind, const std::string& ref, TimePoint now,
              std::chrono::seconds wait) {
  // Every bound value lives until the statement ran (soci::use keeps a reference).
  std::string kind_text = kind, at = formatIso(now), cutoff = isoBefore(now, wait);
  int times = 0;
  sql << "INSERT INTO reconciler_fixes (kind, ref, fixed_at) VALUES (:k, :r, :at::timestamptz) "
         "ON CONFLICT (kind, ref) DO UPDATE SET fixed_at = EXCLUDED.fixed_at, "
         "times = reconciler_fixes.times + 1 WHERE reconciler_fixes.fixed_at <= "
         ":cutoff::timestamptz RETURNING times",
      soci::use(kind_text), soci::use(ref), soci::use(at), soci::use(cutoff), soci::into(times);
  return sql.got_data();
}

int settleStaleHandoffs(WorkerContext& context, const SendPolicy& policy, int batch,
                        TimePoint now) {
  db::Session sql(context.db);
  soci::transaction tx(*sql);
  std::vector<std::string> stale(static_cast<size_t>(batch));
  std::string before = isoBefore(now, std::chrono::seconds(policy.stale_handoff_seconds));
  *sql << "SELECT id FROM messages WHERE status = 'QUEUED' AND mode = 'LIVE' AND "
          "handoff_started_at < :before::timestamptz ORDER BY send_at LIMIT :n "
          "FOR UPDATE SKIP LOCKED",
      soci::use(before), soci::use(batch), soci::into(stale);
  for (const auto& id : stale) failStaleHandoff(*sql, id, now);
  tx.commit();
  return static_cast<int>(stale.size());
}

int republishQueued(WorkerContext& context, const ReconcilerSettings& settings, TimePoint now) {
  db::Session sql(context.db);
  soci::transaction tx(*sql);
  std::vector<std::string> ids(static_cast<size_t>(settings.batch)), accounts(ids.size()),
      froms(ids.size()), modes(ids.size());
  std::string due_before = isoBefore(now, settings.queued_after);
  std::string since = isoBefore(now, settings.horizon);
  *sql << "SELECT id, account_id, from_number, mode FROM messages WHERE status = 'QUEUED' AND "
          "direction = 'OUTBOUND' AND handoff_started_at IS NULL AND coalesce(send_at, "
          "created_at) < :due::timestamptz AND created_at > :since::timestamptz "
          "ORDER BY send_at LIMIT :n FOR UPDATE SKIP LOCKED",
      soci::use(due_before), soci::use(since), soci::use(settings.batch), soci::into(ids),
      soci::into(accounts), soci::into(froms), soci::into(modes);
  int republished = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!claimFix(*sql, "queued", ids[i], now, settings.queued_after)) continue;
    topics::OutboundSms record{ids[i], accounts[i], froms[i], modes[i]};
    db::enqueueOutbox(*sql, std::string(topics::kSmsOutbound.name), froms[i],
                      record.toJson().dump());
    ++republished;
  }
  tx.commit();
  return republished;
}

// The receipt of a message the carrier took long ago: the carrier's word (LIVE), or the
// simulation's (TEST); nothing while the carrier has no final word.
std::optional<topics::CarrierReceipt> recoverReceipt(CarrierClient& carrier,
                                                     const std::string& message_id,
                                                     const std::string& mode, const std::string& to,
                                                     const std::string& carrier_id) {
  if (mode == "TEST") return simulateHandoff(message_id, to).receipt;
  CarrierMessageStatus status = carrier.messageStatus(carrier_id);
  if (!status.ok || !messaging::isFinalCarrierStatus(status.status)) return std::nullopt;
  topics::CarrierReceipt receipt{carrier_id, status.status};
  if (!status.error_code.empty()) {
    receipt.errors.push_back(
        {{"code", status.error_code}, {"title", status.error_title}, {"detail", status.status}});
  }
  try {
    messaging::decideReceipt(receipt);  // a status Telnyx does not have is not published
  } catch (const topics::PermanentError&) {
    spdlog::warn("reconciler: the carrier reports {} as '{}', not a receipt status", carrier_id,
                 status.status);
    return std::nullopt;
  }
  return receipt;
}

int recoverReceipts(WorkerContext& context, CarrierClient& carrier,
                    const ReconcilerSettings& settings, TimePoint now) {
  struct Waiting {
    std::string id, mode, to, carrier_id;
  };
  std::vector<Waiting> claimed;
  {
    db::Session sql(context.db);
    soci::transaction tx(*sql);
    std::vector<std::string> ids(static_cast<size_t>(settings.batch)), modes(ids.size()),
        tos(ids.size()), carrier_ids(ids.size());
    std::string sent_before = isoBefore(now, settings.sending_after);
    std::string since = isoBefore(now, settings.horizon);
    *sql << "SELECT id, mode, to_number, carrier_message_id FROM messages WHERE status = "
            "'SENDING' AND sent_at < :before::timestamptz AND sent_at > :since::timestamptz AND "
            "carrier_message_id IS NOT NULL ORDER BY sent_at LIMIT :n",
        soci::use(sent_before), soci::use(since), soci::use(settings.batch), soci::into(ids),
        soci::into(modes), soci::into(tos), soci::into(carrier_ids);
    for (size_t i = 0; i < ids.size(); ++i) {
      if (claimFix(*sql, "sending", ids[i], now, settings.sending_after))
        claimed.push_back({ids[i], modes[i], tos[i], carrier_ids[i]});
    }
    tx.commit();
  }
  int recovered = 0;
  for (const auto& message : claimed) {
    auto receipt =
        recoverReceipt(carrier, message.id, message.mode, message.to, message.carrier_id);
    if (!receipt) continue;  // asked again after the wait
    db::Session sql(context.db);
    db::enqueueOutbox(*sql, std::string(topics::kCarrierReceipts.name), message.carrier_id,
                      receipt->toJson().dump());
    ++recovered;
  }
  return recovered;
}

int republishInbound(WorkerContext& context, const ReconcilerSettings& settings, TimePoint now) {
  db::Session sql(context.db);
  soci::transaction tx(*sql);
  std::vector<long long> ids(static_cast<size_t>(settings.batch));
  std::string left_before = isoBefore(now, settings.inbound_after);
  std::string since = isoBefore(now, settings.inbound_after + windowOf(settings));
  // Published (at or below the relay's position) and still no message: one copy per text,
  // claimed by its carrier id, since a copy made earlier is itself such a row.
  std::vector<std::string> carrier_ids(ids.size()), txids(ids.size());
  *sql << "SELECT DISTINCT ON (c) o.txid::text, o.id, c FROM outbox o JOIN outbox_relay_position "
          "p ON (o.txid, o.id) <= (p.txid, p.id), LATERAL (SELECT o.payload::jsonb ->> "
          "'carrier_message_id' AS c) r WHERE o.topic = 'sms.inbound' AND o.created_at > "
          ":since::timestamptz AND o.created_at < :before::timestamptz AND NOT EXISTS (SELECT 1 "
          "FROM messages m WHERE m.carrier_message_id = c) ORDER BY c, o.id LIMIT :n",
      soci::use(since), soci::use(left_before), soci::use(settings.batch), soci::into(txids),
      soci::into(ids), soci::into(carrier_ids);
  int republished = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!claimFix(*sql, "inbound", carrier_ids[i], now, settings.inbound_after)) continue;
    // The row is never published twice: a copy, dated like it, goes after the position.
    *sql << "INSERT INTO outbox (topic, record_key, payload, request_id, created_at) SELECT "
            "topic, record_key, payload, request_id, created_at FROM outbox WHERE (txid, id) = "
            "(:txid::xid8, :id)",
        soci::use(txids[i]), soci::use(ids[i]);
    ++republished;
  }
  tx.commit();
  return republished;
}

int republishEvents(WorkerContext& context, const ReconcilerSettings& settings, TimePoint now) {
  db::Session sql(context.db);
  soci::transaction tx(*sql);
  std::vector<std::string> ids(static_cast<size_t>(settings.batch)), accounts(ids.size()),
      types(ids.size()), created(ids.size()), data(ids.size());
  std::vector<int> livemode(ids.size());
  std::string raised_before = isoBefore(now, settings.events_after);
  std::string since = isoBefore(now, settings.events_after + windowOf(settings));
  // Driven by the active endpoints (few), each reading its account's events of the window.
  *sql << "SELECT DISTINCT e.id::text, e.account_id, e.type, iso_ts(e.created_at), "
          "e.livemode::int, e.data::text FROM webhooks w JOIN events e ON e.account_id = "
          "w.account_id AND e.created_at > :since::timestamptz AND e.created_at < "
          ":before::timestamptz AND e.created_at >= w.created_at AND w.events ? e.type AND "
          "(w.mode = 'LIVE' OR NOT e.livemode) WHERE w.active AND w.deleted_at IS NULL AND "
          "NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = w.id AND "
          "d.event_id = e.id) AND NOT EXISTS (SELECT 1 FROM webhook_retries r WHERE "
          "r.webhook_id = w.id AND r.event_id = e.id) AND NOT EXISTS (SELECT 1 FROM "
          "webhook_dead_letters l WHERE l.webhook_id = w.id AND l.event_id = e.id) LIMIT :n",
      soci::use(since), soci::use(raised_before), soci::use(settings.batch), soci::into(ids),
      soci::into(accounts), soci::into(types), soci::into(created), soci::into(livemode),
      soci::into(data);
  int republished = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!claimFix(*sql, "event", ids[i], now, settings.events_after)) continue;
    topics::EventRecord record{ids[i],      types[i],         created[i],
                               accounts[i], livemode[i] != 0, nlohmann::json::parse(data[i])};
    db::enqueueOutbox(*sql, std::string(topics::kEvents.name), accounts[i], record.toJson().dump());
    ++republished;
  }
  tx.commit();
  return republished;
}

}  // namespace

void addReconcilerSettings(ProcessSettings& settings, ReconcilerSettings& reconciler) {
  settings.add("RECONCILER_INTERVAL_MS", reconciler.interval, "how often the reconciler runs");
  settings.add("RECONCILE_QUEUED_AFTER_SECONDS", reconciler.queued_after,
               "a due message no sender took this long has its record written again");
  settings.add("RECONCILE_SENDING_AFTER_SECONDS", reconciler.sending_after,
               "the carrier is asked for a receipt that has not come this long");
  settings.add("RECONCILE_INBOUND_AFTER_SECONDS", reconciler.inbound_after,
               "an inbound record not stored this long after it left is published again");
  settings.add("RECONCILE_EVENTS_AFTER_SECONDS", reconciler.events_after,
               "an event no endpoint it is owed to has seen this long is written again");
}

ReconcilerCounts reconcile(WorkerContext& context, CarrierClient& carrier, const SendPolicy& policy,
                           const ReconcilerSettings& settings) {
  const TimePoint now = context.clock.now();
  ReconcilerCounts counts;
  counts.stale = settleStaleHandoffs(context, policy, settings.batch, now);
  counts.queued = republishQueued(context, settings, now);
  counts.sending = recoverReceipts(context, carrier, settings, now);
  counts.inbound = republishInbound(context, settings, now);
  counts.events = republishEvents(context, settings, now);
  metrics::reconcilerFixed("stale", counts.stale);
  metrics::reconcilerFixed("queued", counts.queued);
  metrics::reconcilerFixed("sending", counts.sending);
  metrics::reconcilerFixed("inbound", counts.inbound);
  metrics::reconcilerFixed("event", counts.events);
  if (counts.total() > 0) {
    spdlog::info(
        "reconciler: {} stale hand-offs settled, {} queued messages and {} events written again, "
        "{} receipts recovered, {} inbound texts published again",
        counts.stale, counts.queued, counts.events, counts.sending, counts.inbound);
    context.relay.notify();
  }
  return counts;
}

}  // namespace smsgw::workers
