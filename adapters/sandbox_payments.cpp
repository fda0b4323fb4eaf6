#include "adapters/sandbox_payments.h"

namespace smsgw {

ChargeResult SandboxPaymentProvider::charge(const std::string&, long long, const std::string& token,
                                            const std::string& idempotency_key) {
  if (token == "tok_sandbox_ok") return {true, "ch_sandbox_" + idempotency_key, ""};
  if (token == "tok_sandbox_declined") return {false, "", "card_declined"};
  return {false, "", "invalid_token"};
}

}  // namespace smsgw
