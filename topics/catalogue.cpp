#include "topics/catalogue.h"

#include <array>

namespace smsgw::topics {

std::span<const TopicSpec> allTopics() {
  static constexpr std::array kAll = {kSmsOutbound, kCarrierReceipts, kSmsInbound,
                                      kEvents,      kBillingRent,     kAccountTrail};
  return kAll;
}

const TopicSpec* findTopic(std::string_view name) {
  if (isDeadLetterTopic(name)) name.remove_suffix(4);
  for (const auto& topic : allTopics()) {
    if (topic.name == name) return &topic;
  }
  return nullptr;
}

std::string deadLetterTopic(std::string_view topic) {
  // A record that fails again when re-driven from a dead-letter topic goes back to it.
  if (isDeadLetterTopic(topic)) return std::string(topic);
  return std::string(topic) + ".dlq";
}

bool isDeadLetterTopic(std::string_view topic) {
  return topic.size() > 4 && topic.substr(topic.size() - 4) == ".dlq";
}

}  // namespace smsgw::topics
