#include "tests/support/test_env.h"

#include <cstdlib>
#include <stdexcept>

namespace smsgw::testing {

std::string requiredEnv(const char* name) {
  const char* value = std::getenv(name);
  if (!value || !*value)
    throw std::runtime_error(std::string(name) + " is not set: run the tests through ops/test");
  return value;
}

std::string carrierUrl() {
  const char* proxy = std::getenv("CARRIER_URL");
  return proxy && *proxy ? proxy : simUrl();
}

}  // namespace smsgw::testing
