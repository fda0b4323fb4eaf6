#pragma once
// The settings of outbound messaging: send limits, pacing, caches, retention and the
// automatic protection thresholds. Every process that needs them reads them once from the
// environment (adapters/settings.h names the variables) with these defaults.

namespace smsgw {

struct SendPolicy {
  // Spec limits: 30 messages per recipient an hour, 100 a day (RECIPIENT_RATE_LIMITED).
  int recipient_hourly_limit = 30;
  int recipient_daily_limit = 100;
  // Messages per account in a rolling 24 h (DAILY_LIMIT_REACHED); accounts may have their own.
  int daily_send_limit = 10000;
  // Distinct recipients one body may reach in 24 h (FANOUT_LIMIT_REACHED).
  int fanout_limit = 1000;
  // Group broadcasts: the spec's default size limit (BROADCAST_TOO_LARGE) and our broadcasts
  // per account and mode in a rolling 24 h (BROADCAST_LIMIT_REACHED); accounts may have their
  // own. A broadcast charges and queues this many members per transaction.
  int broadcast_max_members = 250;
  int broadcasts_per_day = 25;
  int broadcast_batch_size = 500;
  // Verifications (ours; the spec leaves them open): codes to one number, and by one account,
  // per rolling hour in each mode (429 RATE_LIMITED).
  int verifications_per_number_hourly = 5;
  int verifications_per_account_hourly = 100;
  // Carrier throughput of one sending number (spec: a local number sends 10 parts a minute).
  int local_parts_per_minute = 10;
  int toll_free_parts_per_minute = 180;
  int lookup_cache_days = 30;
  // A hand-off started this long ago with no outcome belongs to a sender that died: longer
  // than any carrier call (CARRIER_TIMEOUT_MS) can last.
  int stale_handoff_seconds = 60;
  // A send the carrier throttled (Telnyx's 429) goes back in the queue until its window
  // resets, for up to this long after it was accepted; then it fails CARRIER_THROTTLED,
  // refunded. An hour: as long as Telnyx itself keeps a text in its own queue.
  int throttled_requeue_seconds = 3600;
  // A send whose carrier answer was lost (services/messaging/in_doubt.h) waits this long for a
  // receipt to claim it, then fails CARRIER_TIMEOUT, refunded. Two hours: Telnyx keeps a text
  // in its queue for at most one, and its final receipt follows the handset's within minutes.
  int in_doubt_deadline_seconds = 7200;
  // UNDELIVERABLE_NUMBER: this many carrier failures in a row refuse a number for this long.
  int undeliverable_failures = 3;
  int undeliverable_days = 90;
  // Message bodies are purged (body null, body_purged true) after this many days.
  int message_retention_days = 90;
  // Published outbox rows are deleted after this many hours: Kafka holds the records, and the
  // table would otherwise grow with every event (and slow the relay's reads of what is left).
  int outbox_retention_hours = 24;
  // Automatic protection over the last `protection_sample` LIVE messages settled at the carrier.
  int protection_sample = 50;
  int delivery_warning_pct = 10;      // spec: over 10% failed raises account.delivery_warning
  int failure_pause_pct = 25;         // over this pauses sending (FAILURE_RATE)
  int opt_out_pause_pct = 5;          // opt-outs per LIVE recipient messaged in 24 h (OPT_OUT_RATE)
  int opt_out_pause_min_sends = 100;  // no opt-out pause on fewer sends than this in 24 h
  int pause_hours = 24;
  int spend_warning_floor_cents = 500;  // spec: the larger of 5 dollars and half a typical day
};

}  // namespace smsgw
