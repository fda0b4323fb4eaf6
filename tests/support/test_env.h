#pragma once
// Addresses of the stack under test, from the environment ops/test sets.

#include <string>

namespace smsgw::testing {

std::string requiredEnv(const char* name);  // fails the test run loudly when missing
inline std::string apiUrl() {
  return requiredEnv("API_URL");
}
inline std::string simUrl() {
  return requiredEnv("SIM_URL");
}

}  // namespace smsgw::testing
