#pragma once
// The payment provider behind top-ups. The sandbox provider is the embedded default:
// it accepts `tok_sandbox_ok` and declines `tok_sandbox_declined` (and anything else).

#include <string>

namespace smsgw::api {

struct ChargeResult {
  bool succeeded = false;
  std::string charge_id;       // provider's id when succeeded
  std::string decline_reason;  // when declined
};

class PaymentProvider {
 public:
  virtual ~PaymentProvider() = default;
  virtual std::string name() const = 0;
  // `idempotency_key` makes a retried charge return the first outcome instead of charging again.
  virtual ChargeResult charge(const std::string& customer_id, long long amount_cents,
                              const std::string& token, const std::string& idempotency_key) = 0;
};

class SandboxPaymentProvider final : public PaymentProvider {
 public:
  std::string name() const override { return "sandbox"; }
  ChargeResult charge(const std::string& customer_id, long long amount_cents,
                      const std::string& token, const std::string& idempotency_key) override;
};

}  // namespace smsgw::api
