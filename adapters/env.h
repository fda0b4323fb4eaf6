#pragma once
// What is read straight from the environment outside a process's settings
// (process_settings.h): whether this is a local stack, and addresses for tools and tests.

#include <string>
#include <string_view>

namespace smsgw::env {

// A local stack (ops/up, ops/test) sets SMSGW_ENVIRONMENT=local; anything else is production.
bool isLocalStack();

// For tools and tests outside ProcessSettings: the Kafka bootstrap list (KAFKA_BROKERS, else
// the first line of KAFKA_BOOTSTRAP_FILE; throws when neither is usable) and DATABASE_URL.
std::string kafkaBrokers();
std::string databaseUrl();

}  // namespace smsgw::env
