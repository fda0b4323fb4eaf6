#pragma once
// The embedded payment provider: accepts `tok_sandbox_ok` and declines `tok_sandbox_declined`
// (and anything else) without any network.

#include "domain/payment_provider.h"

namespace smsgw {

class SandboxPaymentProvider final : public PaymentProvider {
 public:
  std::string name() const override { return "sandbox"; }
  ChargeResult charge(const std::string& customer_id, long long amount_cents,
                      const std::string& token, const std::string& idempotency_key) override;
};

}  // namespace smsgw
