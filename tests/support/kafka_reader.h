#pragma once
// Reads a topic from the beginning with a throwaway consumer group, for assertions about
// what was published.

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "topics/consumer_loop.h"

namespace smsgw::testing {

std::string brokers();
// Collects records of `topic` matching `wanted` until `count` were found or `timeout` passed.
std::vector<topics::Record> readRecords(const std::string& topic,
                                        const std::function<bool(const topics::Record&)>& wanted,
                                        size_t count, std::chrono::seconds timeout);

}  // namespace smsgw::testing
