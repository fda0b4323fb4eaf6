#pragma once
// Top-ups through the payment provider. The charge is recorded PENDING before the provider is
// called (its id is the provider's idempotency key), so a crash can never credit twice or
// lose a charge without a trace; the credit, the ledger row, account activation and the rent of
// numbers suspended for want of funds commit together.
// The same Idempotency-Key answers as the first top-up did (IDEMPOTENCY_KEY_REUSED for another
// amount).

#include <nlohmann/json.hpp>
#include <string>

#include "db/database.h"
#include "domain/clock.h"
#include "domain/payment_provider.h"

namespace smsgw::accounts {

inline constexpr long long kMinTopUpCents = 500;
inline constexpr long long kMaxTopUpCents = 1'000'000;

struct TopUpServices {
  db::Database& db;
  PaymentProvider& payments;
  const Clock& clock;
};

// The top-up {id, amount_cents, status, decline_reason, balance_cents, account_status,
// created_at}. Throws ApiError PAYMENT_DECLINED, CONFLICT (top_up_in_progress) or
// IDEMPOTENCY_KEY_REUSED.
nlohmann::json topUp(const TopUpServices& services, const std::string& account_id, long long amount,
                     const std::string& token, const std::string& idempotency_key);

}  // namespace smsgw::accounts
