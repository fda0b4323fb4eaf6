#include "topics/catalogue.h"

#include <array>

namespace smsgw::topics {

std::span<const TopicSpec> allTopics() {
  static constexpr std::array kAll = {kSmsOutbound, kCarrierReceipts, kSmsInbound, kEvents,
                                      kBillingRent};
  return kAll;
}

std::string deadLetterTopic(std::string_view topic) {
  return std::string(topic) + ".dlq";
}

}  // namespace smsgw::topics
