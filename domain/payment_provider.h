#pragma once
// The payment provider behind top-ups, as the gateway sees it: a narrow interface and its
// result, pure types. The sandbox provider is adapters/sandbox_payments.h.

#include <string>

namespace smsgw {

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

}  // namespace smsgw
