#include "adapters/env.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace smsgw::env {

std::string get(const char* name, std::string_view fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : std::string(fallback);
}

int getInt(const char* name, int fallback) {
  const char* value = std::getenv(name);
  if (!value || !*value) return fallback;
  try {
    size_t used = 0;
    int parsed = std::stoi(value, &used);
    if (used != std::string_view(value).size()) throw std::invalid_argument(name);
    return parsed;
  } catch (const std::exception&) {
    throw std::invalid_argument(std::string(name) + " must be an integer");
  }
}

bool getBool(const char* name, bool fallback) {
  std::string value = get(name, fallback ? "true" : "false");
  if (value == "1" || value == "true" || value == "yes") return true;
  if (value == "0" || value == "false" || value == "no") return false;
  throw std::invalid_argument(std::string(name) + " must be true or false");
}

bool isLocalStack() {
  return get("SMSGW_ENVIRONMENT", "production") == "local";
}

std::string secret(const char* name, std::string_view local_default) {
  std::string value = get(name, local_default);
  if (!isLocalStack() && value == local_default) {
    throw std::invalid_argument(std::string(name) +
                                " is unset or still the local stack's default; set the real "
                                "secret (or SMSGW_ENVIRONMENT=local for a local stack)");
  }
  return value;
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
