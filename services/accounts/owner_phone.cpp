#include "services/accounts/owner_phone.h"

#include <fmt/format.h>
#include <soci/soci.h>

#include <algorithm>

#include "db/json_rows.h"
#include "domain/carrier_hold.h"
#include "domain/crypto.h"
#include "domain/errors.h"

namespace smsgw::accounts {
namespace {

constexpr int kMaxAttempts = 5;
constexpr int kCodeLength = 6;
constexpr int kCodesPerAccountPerDay = 5;
constexpr int kCodesPerNumberPerDay = 3;

std::string codeHash(const OwnerPhoneServices& app, const std::string& account_id,
                     const E164& phone, const std::string& code) {
  return crypto::hex(
      crypto::hmacSha256(app.settings.code_secret, account_id + ":" + phone.str() + ":" + code));
}

void failForCarrier(const CarrierSendResult& result) {
  switch (result.kind) {
    case CarrierSendResult::Kind::Accepted:
      return;
    case CarrierSendResult::Kind::InDoubt:
      throw ApiError(ErrorCode::CARRIER_TIMEOUT);
    case CarrierSendResult::Kind::Refused:
    case CarrierSendResult::Kind::OptedOutAtCarrier:
      throw ApiError(ErrorCode::CARRIER_ERROR, {{"carrier_code", result.error_code}});
    case CarrierSendResult::Kind::Throttled:  // the carrier's wait is the client's
      throw ApiError(ErrorCode::CARRIER_UNAVAILABLE, nullptr,
                     static_cast<int>(CarrierHold::waitFor(result.retry_after).count()));
    case CarrierSendResult::Kind::Unavailable:
      throw ApiError(ErrorCode::CARRIER_UNAVAILABLE);
  }
}

// Refuses a new code while the current one is locked, or when a limit on codes is reached;
// each refusal says when to try again.
void refuseWhileLimited(soci::session& sql, const OwnerPhoneServices& app,
                        const std::string& account_id, const E164& phone, const std::string& at) {
  int locked_for = 0;
  sql << "SELECT greatest(0, ceil(extract(epoch FROM expires_at - :now::timestamptz)))::int "
         "FROM owner_phone_verifications WHERE account_id = :a AND attempts >= :max AND "
         "expires_at > :now::timestamptz",
      soci::use(at, "now"), soci::use(account_id, "a"), soci::use(kMaxAttempts, "max"),
      soci::into(locked_for);
  if (sql.got_data()) {
    throw ApiError(ErrorCode::VERIFICATION_MAX_ATTEMPTS, {{"reason", "code_locked"}},
                   std::max(1, locked_for));
  }
  int recent = 0, by_account = 0, to_number = 0, account_wait = 0, number_wait = 0;
  // Waits are the seconds until the oldest code of the day leaves the window.
  sql << "WITH asked AS (SELECT :a::text AS account, :p::text AS phone, :resend::int AS resend, "
         ":now::timestamptz AS now) "
         "SELECT count(*) FILTER (WHERE c.account_id = asked.account AND c.sent_at > asked.now - "
         "make_interval(secs => asked.resend)), "
         "count(*) FILTER (WHERE c.account_id = asked.account), "
         "count(*) FILTER (WHERE c.phone_number = asked.phone), "
         "coalesce(ceil(extract(epoch FROM min(c.sent_at) FILTER (WHERE c.account_id = "
         "asked.account) + interval '1 day' - asked.now)), 0)::int, "
         "coalesce(ceil(extract(epoch FROM min(c.sent_at) FILTER (WHERE c.phone_number = "
         "asked.phone) + interval '1 day' - asked.now)), 0)::int "
         "FROM asked LEFT JOIN owner_phone_codes_sent c ON (c.account_id = asked.account OR "
         "c.phone_number = asked.phone) AND c.sent_at > asked.now - interval '1 day' GROUP BY "
         "asked.resend, asked.now",
      soci::use(account_id, "a"), soci::use(phone.str(), "p"),
      soci::use(app.settings.resend_seconds, "resend"), soci::use(at, "now"), soci::into(recent),
      soci::into(by_account), soci::into(to_number), soci::into(account_wait),
      soci::into(number_wait);
  if (recent) {
    throw ApiError(ErrorCode::RATE_LIMITED, {{"reason", "code_recently_sent"}},
                   app.settings.resend_seconds);
  }
  if (by_account >= kCodesPerAccountPerDay) {
    throw ApiError(ErrorCode::RATE_LIMITED,
                   {{"reason", "codes_per_account"}, {"limit", kCodesPerAccountPerDay}},
                   std::max(1, account_wait));
  }
  if (to_number >= kCodesPerNumberPerDay) {
    throw ApiError(ErrorCode::RATE_LIMITED,
                   {{"reason", "codes_to_number"}, {"limit", kCodesPerNumberPerDay}},
                   std::max(1, number_wait));
  }
}

}  // namespace

nlohmann::json sendOwnerCode(const OwnerPhoneServices& app, const std::string& account_id,
                             const E164& phone, TimePoint now) {
  std::string code = crypto::randomDigits(kCodeLength), at = formatIso(now);
  {
    db::Session sql(app.db);
    soci::transaction tx(*sql);
    // One account's requests one at a time, so two at once cannot both pass the limits.
    *sql << "SELECT id FROM accounts WHERE id = :a FOR UPDATE", soci::use(account_id);
    refuseWhileLimited(*sql, app, account_id, phone, at);
    // Counted before the carrier is asked: a text that may have gone out counts.
    *sql << "DELETE FROM owner_phone_codes_sent WHERE sent_at < :now::timestamptz - "
            "interval '1 day'",
        soci::use(at);
    *sql << "INSERT INTO owner_phone_codes_sent (account_id, phone_number, sent_at) "
            "VALUES (:a, :p, :now::timestamptz)",
        soci::use(account_id), soci::use(phone.str()), soci::use(at);
    tx.commit();
  }
  std::string text =
      fmt::format("Your verification code is {0}. Votre code de vérification est {0}.", code);
  failForCarrier(app.carrier.sendMessage(app.settings.platform_sender, phone.str(), text));

  db::Session sql(app.db);
  std::string hash = codeHash(app, account_id, phone, code);
  std::string expires_at;
  // Wrong tries carry over to the new code until the old one expired: a resend is no way
  // around the five.
  *sql << "INSERT INTO owner_phone_verifications (account_id, phone_number, code_hash, expires_at) "
          "VALUES (:a, :p, :h, :now::timestamptz + interval '10 minutes') "
          "ON CONFLICT (account_id) DO UPDATE SET phone_number = excluded.phone_number, "
          "code_hash = excluded.code_hash, attempts = CASE WHEN "
          "owner_phone_verifications.expires_at > :now::timestamptz THEN "
          "owner_phone_verifications.attempts ELSE 0 END, expires_at = excluded.expires_at, "
          "created_at = :now::timestamptz RETURNING iso_ts(expires_at)",
      soci::use(account_id, "a"), soci::use(phone.str(), "p"), soci::use(hash, "h"),
      soci::use(at, "now"), soci::into(expires_at);
  return {{"status", "code_sent"}, {"phone_number", phone.str()}, {"expires_at", expires_at}};
}

nlohmann::json confirmOwnerCode(const OwnerPhoneServices& app, const std::string& account_id,
                                const E164& phone, const std::string& code, TimePoint now) {
  db::Session sql(app.db);
  soci::transaction tx(*sql);
  std::string stored_phone, stored_hash, at = formatIso(now);
  int attempts = 0, expired = 0;
  *sql << "SELECT phone_number, code_hash, attempts, (expires_at < :now::timestamptz)::int FROM "
          "owner_phone_verifications WHERE account_id = :a FOR UPDATE",
      soci::use(at, "now"), soci::use(account_id, "a"), soci::into(stored_phone),
      soci::into(stored_hash), soci::into(attempts), soci::into(expired);
  if (!sql->got_data() || stored_phone != phone.str())
    throw ApiError(ErrorCode::VERIFICATION_NOT_FOUND);
  if (attempts >= kMaxAttempts) throw ApiError(ErrorCode::VERIFICATION_MAX_ATTEMPTS);
  if (expired) throw ApiError(ErrorCode::VERIFICATION_EXPIRED);
  if (!crypto::constantTimeEquals(codeHash(app, account_id, phone, code), stored_hash)) {
    *sql << "UPDATE owner_phone_verifications SET attempts = attempts + 1 WHERE account_id = :a",
        soci::use(account_id);
    tx.commit();
    int remaining = kMaxAttempts - attempts - 1;
    if (remaining <= 0) throw ApiError(ErrorCode::VERIFICATION_MAX_ATTEMPTS);
    throw ApiError(ErrorCode::VERIFICATION_INVALID_CODE, {{"attempts_remaining", remaining}});
  }
  *sql << "UPDATE accounts SET verified_phone = :p, phone_verified_at = :now::timestamptz "
          "WHERE id = :a",
      soci::use(phone.str(), "p"), soci::use(at, "now"), soci::use(account_id, "a");
  *sql << "DELETE FROM owner_phone_verifications WHERE account_id = :a", soci::use(account_id);
  auto account = db::queryJson(*sql, "SELECT api_account(a)::text FROM accounts a WHERE a.id = :id",
                               account_id);
  tx.commit();
  return *account;
}

}  // namespace smsgw::accounts
