#include "adapters/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <memory>

namespace smsgw::metrics {
namespace {

using prometheus::BuildCounter;
using prometheus::BuildGauge;
using prometheus::BuildHistogram;
using prometheus::Histogram;

// Seconds: from a cached answer (a millisecond) to a carrier or webhook that hangs.
const Histogram::BucketBoundaries& latencyBuckets() {
  static const Histogram::BucketBoundaries buckets = {
      0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
  return buckets;
}

// Every family, made once; prometheus-cpp's families are thread-safe.
struct Families {
  std::shared_ptr<prometheus::Registry> registry = std::make_shared<prometheus::Registry>();
  prometheus::Family<prometheus::Counter>& http_requests =
      BuildCounter()
          .Name("smsgw_http_requests_total")
          .Help("API requests answered, by route, method and status")
          .Register(*registry);
  prometheus::Family<Histogram>& http_seconds =
      BuildHistogram()
          .Name("smsgw_http_request_duration_seconds")
          .Help("API request time from reading to answer, by route and method")
          .Register(*registry);
  prometheus::Family<prometheus::Counter>& sends =
      BuildCounter()
          .Name("smsgw_sends_total")
          .Help("POST /v1/messages decisions: accepted, or refused with the error code")
          .Register(*registry);
  prometheus::Family<prometheus::Counter>& records =
      BuildCounter()
          .Name("smsgw_records_handled_total")
          .Help("Kafka records handled, by topic and outcome (applied, unchanged, dead_lettered)")
          .Register(*registry);
  prometheus::Family<Histogram>& handler_seconds =
      BuildHistogram()
          .Name("smsgw_handler_duration_seconds")
          .Help("Time a handler took on one record, retries included, by topic")
          .Register(*registry);
  prometheus::Family<prometheus::Counter>& dead_letters =
      BuildCounter()
          .Name("smsgw_dead_letters_total")
          .Help("Records set aside on their topic's dead-letter topic")
          .Register(*registry);
  prometheus::Family<prometheus::Counter>& batches =
      BuildCounter()
          .Name("smsgw_batches_total")
          .Help(
              "Batches of records handled in one transaction, by topic and outcome (committed, "
              "split: failed and handled one by one)")
          .Register(*registry);
  prometheus::Family<prometheus::Counter>& batched_records =
      BuildCounter()
          .Name("smsgw_batched_records_total")
          .Help("Records in the batches of smsgw_batches_total, by topic and outcome")
          .Register(*registry);
  prometheus::Family<prometheus::Gauge>& lag =
      BuildGauge()
          .Name("smsgw_consumer_lag")
          .Help("Records a consumer group has yet to handle on a partition")
          .Register(*registry);
  prometheus::Family<prometheus::Counter>& rebalanced =
      BuildCounter()
          .Name("smsgw_consumer_partitions_moved_total")
          .Help("Partitions rebalances gave to this member or took from it, by group and change")
          .Register(*registry);
  prometheus::Family<prometheus::Counter>& offset_commits =
      BuildCounter()
          .Name("smsgw_consumer_offset_commits_total")
          .Help("Offset commits of a consumer group, by result (committed, nothing_new, failed)")
          .Register(*registry);
  prometheus::Family<prometheus::Counter>& carrier_calls =
      BuildCounter()
          .Name("smsgw_carrier_requests_total")
          .Help("Calls to the carrier, by operation and outcome")
          .Register(*registry);
  prometheus::Family<Histogram>& carrier_seconds =
      BuildHistogram()
          .Name("smsgw_carrier_request_duration_seconds")
          .Help("Carrier call time, by operation")
          .Register(*registry);
  prometheus::Family<prometheus::Counter>& webhook_attempts =
      BuildCounter()
          .Name("smsgw_webhook_attempts_total")
          .Help("Webhook delivery attempts, by outcome")
          .Register(*registry);
  prometheus::Family<Histogram>& webhook_seconds =
      BuildHistogram()
          .Name("smsgw_webhook_attempt_duration_seconds")
          .Help("Webhook attempt time, by outcome")
          .Register(*registry);
  prometheus::Family<prometheus::Counter>& reconciler =
      BuildCounter()
          .Name("smsgw_reconciler_fixes_total")
          .Help("What the stuck-work reconciler fixed, by kind")
          .Register(*registry);
  prometheus::Family<prometheus::Counter>& auto_replies_not_queued =
      BuildCounter()
          .Name("smsgw_auto_replies_not_queued_total")
          .Help("Automatic replies to STOP, START or HELP that could not be queued, by keyword")
          .Register(*registry);
  prometheus::Family<prometheus::Counter>& carrier_opt_outs =
      BuildCounter()
          .Name("smsgw_carrier_opt_out_refusals_total")
          .Help(
              "Sends the carrier refused for an opt-out it keeps itself (Telnyx 40300): its own "
              "opt-out handling is on")
          .Register(*registry);
  prometheus::Family<prometheus::Gauge>& outbox_rows =
      BuildGauge()
          .Name("smsgw_outbox_unpublished_rows")
          .Help("Outbox rows committed and not yet published")
          .Register(*registry);
  prometheus::Family<prometheus::Gauge>& disabled_webhooks =
      BuildGauge()
          .Name("smsgw_webhook_endpoints_disabled")
          .Help("Webhook endpoints switched off after failing, not deleted")
          .Register(*registry);
  prometheus::Family<prometheus::Gauge>& releases_in_doubt =
      BuildGauge()
          .Name("smsgw_number_releases_in_doubt")
          .Help("Numbers left RELEASING: the carrier confirmed neither the release nor a refusal")
          .Register(*registry);
  prometheus::Family<prometheus::Gauge>& outbox_age =
      BuildGauge()
          .Name("smsgw_outbox_oldest_unpublished_age_seconds")
          .Help("Age of the oldest outbox row not yet published (0 when none)")
          .Register(*registry);
};

Families& families() {
  static Families all;
  return all;
}

std::string text(std::string_view view) {
  return std::string(view);
}

}  // namespace

std::string exposition() {
  return prometheus::TextSerializer().Serialize(families().registry->Collect());
}

void httpRequest(std::string_view route, std::string_view method, int status, double seconds) {
  auto& f = families();
  f.http_requests
      .Add({{"route", text(route)}, {"method", text(method)}, {"status", std::to_string(status)}})
      .Increment();
  f.http_seconds.Add({{"route", text(route)}, {"method", text(method)}}, latencyBuckets())
      .Observe(seconds);
}

void sendDecided(bool accepted, std::string_view code) {
  families()
      .sends.Add({{"outcome", accepted ? "accepted" : "refused"}, {"code", text(code)}})
      .Increment();
}

void recordHandled(std::string_view topic, std::string_view outcome, double seconds) {
  auto& f = families();
  f.records.Add({{"topic", text(topic)}, {"outcome", text(outcome)}}).Increment();
  f.handler_seconds.Add({{"topic", text(topic)}}, latencyBuckets()).Observe(seconds);
}

void deadLettered(std::string_view topic) {
  families().dead_letters.Add({{"topic", text(topic)}}).Increment();
}

void batchHandled(std::string_view topic, bool committed, size_t records) {
  auto& f = families();
  const char* outcome = committed ? "committed" : "split";
  f.batches.Add({{"topic", text(topic)}, {"outcome", outcome}}).Increment();
  f.batched_records.Add({{"topic", text(topic)}, {"outcome", outcome}})
      .Increment(static_cast<double>(records));
}

void consumerLag(std::string_view group, std::string_view topic, int partition, long long lag) {
  families()
      .lag
      .Add({{"group", text(group)},
            {"topic", text(topic)},
            {"partition", std::to_string(partition)}})
      .Set(static_cast<double>(lag));
}

void partitionsMoved(std::string_view group, std::string_view change, int count) {
  if (count > 0)
    families().rebalanced.Add({{"group", text(group)}, {"change", text(change)}}).Increment(count);
}

void offsetsCommitted(std::string_view group, std::string_view result) {
  families().offset_commits.Add({{"group", text(group)}, {"result", text(result)}}).Increment();
}

void carrierCall(std::string_view operation, std::string_view outcome, double seconds) {
  auto& f = families();
  f.carrier_calls.Add({{"operation", text(operation)}, {"outcome", text(outcome)}}).Increment();
  f.carrier_seconds.Add({{"operation", text(operation)}}, latencyBuckets()).Observe(seconds);
}

void webhookAttempt(bool success, double seconds) {
  auto& f = families();
  std::string outcome = success ? "success" : "failure";
  f.webhook_attempts.Add({{"outcome", outcome}}).Increment();
  f.webhook_seconds.Add({{"outcome", outcome}}, latencyBuckets()).Observe(seconds);
}

void reconcilerFixed(std::string_view kind, int count) {
  if (count > 0) families().reconciler.Add({{"kind", text(kind)}}).Increment(count);
}

void autoReplyNotQueued(std::string_view keyword) {
  families().auto_replies_not_queued.Add({{"keyword", text(keyword)}}).Increment();
}

void outboxBacklog(long long rows, double oldest_age_seconds) {
  auto& f = families();
  f.outbox_rows.Add({}).Set(static_cast<double>(rows));
  f.outbox_age.Add({}).Set(oldest_age_seconds);
}

void webhooksDisabled(long long endpoints) {
  families().disabled_webhooks.Add({}).Set(static_cast<double>(endpoints));
}

void carrierOptOutRefusal() {
  families().carrier_opt_outs.Add({}).Increment();
}

void releasesInDoubt(long long numbers) {
  families().releases_in_doubt.Add({}).Set(static_cast<double>(numbers));
}

}  // namespace smsgw::metrics
