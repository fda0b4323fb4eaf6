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
// Where the carrier adapter under test sends Telnyx's API calls: the simulator, or a validating
// proxy in front of it holding Telnyx's document (tests/contract/telnyx) when CARRIER_URL is set.
std::string carrierUrl();

}  // namespace smsgw::testing
