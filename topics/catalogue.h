#pragma once
// Every Kafka topic the system uses: name, partition count and what the record key is.
// The embedded broker creates exactly these (plus one `<name>.dlq` each).

#include <span>
#include <string>
#include <string_view>

namespace smsgw::topics {

struct TopicSpec {
  std::string_view name;
  int partitions;
  std::string_view key;       // what the record key holds; per-key order is what Kafka guarantees
  std::string_view consumer;  // the worker that handles it (its executable is smsgw-<consumer>);
                              // empty for a topic no worker reads
};

inline constexpr TopicSpec kSmsOutbound{"sms.outbound", 6, "sending number (E.164)", "sender"};
inline constexpr TopicSpec kCarrierReceipts{"carrier.receipts", 6, "carrier message id", "receipt"};
inline constexpr TopicSpec kSmsInbound{
    "sms.inbound", 6, "account number that received the text (E.164)", "inbound-keyword"};
inline constexpr TopicSpec kEvents{"events", 6, "account id", "webhook-dispatcher"};
inline constexpr TopicSpec kBillingRent{"billing.rent", 3, "phone number id", "rent-billing"};
// Read by no worker: what `smsgw-admin restore-audit` sets against a restored database, the
// changes that raise no event (accounts, API keys, money other than messages'; migration 0031).
inline constexpr TopicSpec kAccountTrail{"accounts.trail", 3, "account id", ""};

std::span<const TopicSpec> allTopics();
// The catalogue's topic `name`, or the topic whose dead-letter topic it is; nullptr otherwise.
const TopicSpec* findTopic(std::string_view name);
std::string deadLetterTopic(std::string_view topic);
bool isDeadLetterTopic(std::string_view topic);
inline constexpr int kDeadLetterPartitions = 1;

}  // namespace smsgw::topics
