#pragma once
// Reading process configuration from the environment. Each process builds one read-only
// config struct from these at start-up and fails fast on bad values.

#include <string>
#include <string_view>

namespace smsgw::env {

std::string get(const char* name, std::string_view fallback);
int getInt(const char* name, int fallback);  // throws std::invalid_argument naming the variable
bool getBool(const char* name, bool fallback);

// The Kafka bootstrap list: KAFKA_BROKERS, else the first line of KAFKA_BOOTSTRAP_FILE
// (written by the embedded broker launcher). Throws when neither is usable.
std::string kafkaBrokers();
std::string databaseUrl();

}  // namespace smsgw::env
