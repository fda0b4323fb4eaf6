// Owner phone verification: a code by SMS from the platform's sender, then confirmation.
// Codes are stored only as hashes, expire after 10 minutes and allow 5 attempts.
#include <fmt/format.h>
#include <soci/soci.h>

#include "api/routes/json_rows.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/crypto.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

constexpr int kMaxAttempts = 5;
constexpr int kCodeLength = 6;
constexpr int kResendAfterSeconds = 30;

std::string codeHash(const std::string& account_id, const std::string& code) {
  return crypto::sha256Hex(account_id + ":" + code);
}

std::string randomCode() {
  std::string code;
  for (unsigned char c : crypto::randomBytes(kCodeLength * 2)) {
    if (c < 250 && code.size() < kCodeLength) code.push_back(static_cast<char>('0' + c % 10));
  }
  while (code.size() < kCodeLength)
    code.push_back('0' + static_cast<char>(crypto::randomBytes(1)[0] & 7));
  return code;
}

void failForCarrier(const CarrierSendResult& result) {
  switch (result.kind) {
    case CarrierSendResult::Kind::Accepted:
      return;
    case CarrierSendResult::Kind::Timeout:
      throw ApiError(ErrorCode::CARRIER_TIMEOUT);
    case CarrierSendResult::Kind::Refused:
      throw ApiError(ErrorCode::CARRIER_ERROR, {{"carrier_code", result.error_code}});
    case CarrierSendResult::Kind::Throttled:
    case CarrierSendResult::Kind::Unavailable:
      throw ApiError(ErrorCode::CARRIER_UNAVAILABLE);
  }
}

ApiResponse sendCode(App& app, const std::string& account_id, const E164& phone) {
  std::string code = randomCode();
  {
    db::Session sql(app.db);
    int recent = 0;
    *sql << "SELECT count(*) FROM owner_phone_verifications WHERE account_id = :a "
            "AND created_at > now() - make_interval(secs => :s)",
        soci::use(account_id), soci::use(kResendAfterSeconds), soci::into(recent);
    if (recent)
      throw ApiError(ErrorCode::RATE_LIMITED, {{"reason", "code_recently_sent"}},
                     kResendAfterSeconds);
  }
  std::string text =
      fmt::format("Your verification code is {0}. Votre code de vérification est {0}.", code);
  failForCarrier(app.carrier.sendMessage(app.config.platform_sender, phone.str(), text));

  db::Session sql(app.db);
  std::string hash = codeHash(account_id, code);
  std::string expires_at;
  *sql << "INSERT INTO owner_phone_verifications (account_id, phone_number, code_hash, expires_at) "
          "VALUES (:a, :p, :h, now() + interval '10 minutes') "
          "ON CONFLICT (account_id) DO UPDATE SET phone_number = excluded.phone_number, code_hash "
          "= excluded.code_hash, "
          "attempts = 0, expires_at = excluded.expires_at, created_at = now() RETURNING "
          "iso_ts(expires_at)",
      soci::use(account_id), soci::use(phone.str()), soci::use(hash), soci::into(expires_at);
  return ApiResponse::json(
      202, {{"status", "code_sent"}, {"phone_number", phone.str()}, {"expires_at", expires_at}});
}

ApiResponse confirmCode(App& app, const std::string& account_id, const E164& phone,
                        const std::string& code) {
  db::Session sql(app.db);
  soci::transaction tx(*sql);
  std::string stored_phone, stored_hash;
  int attempts = 0, expired = 0;
  *sql << "SELECT phone_number, code_hash, attempts, (expires_at < now())::int FROM "
          "owner_phone_verifications "
          "WHERE account_id = :a FOR UPDATE",
      soci::use(account_id), soci::into(stored_phone), soci::into(stored_hash),
      soci::into(attempts), soci::into(expired);
  if (!sql->got_data() || stored_phone != phone.str())
    throw ApiError(ErrorCode::VERIFICATION_NOT_FOUND);
  if (attempts >= kMaxAttempts) throw ApiError(ErrorCode::VERIFICATION_MAX_ATTEMPTS);
  if (expired) throw ApiError(ErrorCode::VERIFICATION_EXPIRED);
  if (!crypto::constantTimeEquals(codeHash(account_id, code), stored_hash)) {
    *sql << "UPDATE owner_phone_verifications SET attempts = attempts + 1 WHERE account_id = :a",
        soci::use(account_id);
    tx.commit();
    int remaining = kMaxAttempts - attempts - 1;
    if (remaining <= 0) throw ApiError(ErrorCode::VERIFICATION_MAX_ATTEMPTS);
    throw ApiError(ErrorCode::VERIFICATION_INVALID_CODE, {{"attempts_remaining", remaining}});
  }
  *sql << "UPDATE accounts SET verified_phone = :p, phone_verified_at = now() WHERE id = :a",
      soci::use(phone.str()), soci::use(account_id);
  *sql << "DELETE FROM owner_phone_verifications WHERE account_id = :a", soci::use(account_id);
  auto account =
      queryJson(*sql, "SELECT api_account(a)::text FROM accounts a WHERE a.id = :id", account_id);
  tx.commit();
  return ApiResponse::json(200, *account);
}

ApiResponse phoneVerification(App& app, ApiRequest& req) {
  requireOwnAccountPath(req);
  if (!req.who().live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  const auto& body = requireObjectBody(req);
  E164 phone = requirePhone(requireString(body, "phone_number", 20), "phone_number");
  auto code = optionalString(body, "code", 20);
  if (!code) return sendCode(app, req.who().account_id, phone);
  return confirmCode(app, req.who().account_id, phone, *code);
}

}  // namespace

void addOwnerPhoneRoutes(Router& router, App& app) {
  RouteOptions options = onSlowLane(needs("account:m"));  // the code goes out through the carrier
  options.allowed_before_payment = true;
  router.add("POST", "/v1/accounts/{id}/phone-verification", options,
             [&app](ApiRequest& r) { return phoneVerification(app, r); });
}

}  // namespace smsgw::api
