#pragma once
// The process's Prometheus metrics (prometheus-cpp): one registry per process, served as text
// at /metrics by the ops endpoint (ops_endpoint.h). Each function records one thing where it
// happens; none throws. Names and labels are listed in docs/operations.md.

#include <cstddef>
#include <string>
#include <string_view>

namespace smsgw::metrics {

// The text exposition format of every metric of this process.
std::string exposition();

// API: a request answered, by route pattern ("unmatched" when none), method and status.
void httpRequest(std::string_view route, std::string_view method, int status, double seconds);
// API: POST /v1/messages accepted, or refused with its error code.
void sendDecided(bool accepted, std::string_view code);
// Consumers: a record handled (applied, unchanged, dead_lettered), and how long it took.
void recordHandled(std::string_view topic, std::string_view outcome, double seconds);
// Consumers: a record set aside on its topic's dead-letter topic.
void deadLettered(std::string_view topic);
// Consumers: a batch of records handled in one transaction, committed or split (it failed, and
// its records were handled one by one).
void batchHandled(std::string_view topic, bool committed, size_t records);
// Consumers: the lag of a group on a partition (librdkafka's statistics).
void consumerLag(std::string_view group, std::string_view topic, int partition, long long lag);
// Consumers: partitions a rebalance gave to this member or took from it ("assigned", "revoked").
void partitionsMoved(std::string_view group, std::string_view change, int count);
// Consumers: one offset commit and its result ("committed", "nothing_new", "failed").
void offsetsCommitted(std::string_view group, std::string_view result);
// Carrier: one call (send, status, lookup, ...) and its outcome (ok, refused, error, timeout).
void carrierCall(std::string_view operation, std::string_view outcome, double seconds);
// Dispatcher: one webhook attempt (success, failure).
void webhookAttempt(bool success, double seconds);
// Sender: what the reconciler fixed, by kind.
void reconcilerFixed(std::string_view kind, int count);
// Inbound-keyword worker: an automatic reply that could not be queued (the keyword's action
// stood without it).
void autoReplyNotQueued(std::string_view keyword);
// Any process: the outbox rows not yet published and the age of the oldest.
void outboxBacklog(long long rows, double oldest_age_seconds);
// Any process: webhook endpoints switched off after failing (spec "Delivery rules").
void webhooksDisabled(long long endpoints);
// Rent-billing worker: numbers whose release the carrier has not confirmed after a retry (the
// customer pays no rent for them; the carrier may still bill the operator).
void releasesInDoubt(long long numbers);
// A send the carrier refused for an opt-out it keeps itself (Telnyx's block rules).
void carrierOptOutRefusal();

}  // namespace smsgw::metrics
