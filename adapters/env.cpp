#include "adapters/env.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace smsgw::env {

namespace {

std::string get(const char* name, std::string_view fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : std::string(fallback);
}

}  // namespace

bool isLocalStack() {
  return get("SMSGW_ENVIRONMENT", "production") == "local";
}

std::string kafkaBrokers() {
  std::string brokers = get("KAFKA_BROKERS", "");
  if (!brokers.empty()) return brokers;
  std::string file = get("KAFKA_BOOTSTRAP_FILE", "");
  if (file.empty()) throw std::invalid_argument("set KAFKA_BROKERS or KAFKA_BOOTSTRAP_FILE");
  std::ifstream in(file);
  std::getline(in, brokers);
  if (brokers.empty()) throw std::invalid_argument("no bootstrap address in " + file);
  return brokers;
}

std::string databaseUrl() {
  return get("DATABASE_URL", "host=127.0.0.1 port=15432 dbname=smsgw user=smsgw");
}

}  // namespace smsgw::env
