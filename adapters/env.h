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
// A local stack (ops/up, ops/test) sets SMSGW_ENVIRONMENT=local; anything else is production.
bool isLocalStack();
// A secret setting. A local stack may use `local_default` (the carrier simulator's, say); in
// production, a process refuses to start when the secret is missing or still that default,
// so it never runs with a value published in this repository. Throws std::invalid_argument.
std::string secret(const char* name, std::string_view local_default);

std::string kafkaBrokers();
std::string databaseUrl();

}  // namespace smsgw::env
