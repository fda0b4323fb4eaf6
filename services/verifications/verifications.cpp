#include "services/verifications/verifications.h"

#include <fmt/format.h>
#include <soci/soci.h>

#include <algorithm>

#include "db/json_rows.h"
#include "db/ledger.h"
#include "domain/crypto.h"
#include "domain/destinations.h"
#include "domain/display_name.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "services/messaging/queued_messages.h"
#include "services/numbers/sending_number.h"
#include "services/sending/send_checks.h"

namespace smsgw::verifications {
namespace {

constexpr int kValidMinutes = 10;

std::string codeHash(const std::string& secret, const std::string& id, const std::string& code) {
  return crypto::hex(crypto::hmacSha256(secret, "verification:" + id + ":" + code));
}

std::string sealKey(const std::string& secret) {
  return crypto::hmacSha256(secret, "verification-seal");  // 32 bytes: an AES-256 key
}

nlohmann::json render(soci::session& sql, const std::string& id, TimePoint now) {
  std::string text, at = formatIso(now);
  sql << "SELECT api_verification(v, :now::timestamptz)::text FROM verifications v WHERE "
         "v.id = :id",
      soci::use(at), soci::use(id), soci::into(text);
  return nlohmann::json::parse(text);
}

// What verification_standing read (db/functions).
struct Standing {
  int to_number_last_hour = 0, number_frees_in = 0;
  int by_account_last_hour = 0, account_frees_in = 0;
  std::optional<std::string> previous_id;  // the number's code still in force, locked
  std::string previous_status;
  int previous_attempts = 0, previous_expires_in = 0;
  bool opted_out = false;
  FencePlacement fence;
  sending::KnownDestination destination;
  sending::LiveSenderStanding sender;
  int price_cents = 0;
};

int intOr(const nlohmann::json& row, const char* field, int fallback = 0) {
  return row.at(field).is_null() ? fallback : row.at(field).get<int>();
}

std::optional<std::string> textOf(const nlohmann::json& row, const char* field) {
  return row.at(field).is_null() ? std::nullopt
                                 : std::optional<std::string>(row.at(field).get<std::string>());
}

Standing readStanding(soci::session& sql, const Caller& caller, const SendPolicy& policy,
                      const E164& phone, const std::string& opt_out_from, TimePoint now) {
  std::string mode(toString(caller.mode)), at = formatIso(now), text;
  std::string allow = caller.allow_list_id.value_or(""), deny = caller.deny_list_id.value_or("");
  soci::indicator allow_ind = caller.allow_list_id ? soci::i_ok : soci::i_null,
                  deny_ind = caller.deny_list_id ? soci::i_ok : soci::i_null;
  sql << "SELECT row_to_json(s)::text FROM verification_standing(:a, :m, :p, :f, :allow, :deny, "
         ":cache_days, :failures, :failure_days, :now::timestamptz) s",
      soci::use(caller.account_id), soci::use(mode), soci::use(phone.str()),
      soci::use(opt_out_from), soci::use(allow, allow_ind), soci::use(deny, deny_ind),
      soci::use(policy.lookup_cache_days), soci::use(policy.undeliverable_failures),
      soci::use(policy.undeliverable_days), soci::use(at), soci::into(text);
  auto row = nlohmann::json::parse(text);
  Standing s;
  s.to_number_last_hour = intOr(row, "to_number_last_hour");
  s.number_frees_in = intOr(row, "number_frees_in");
  s.by_account_last_hour = intOr(row, "by_account_last_hour");
  s.account_frees_in = intOr(row, "account_frees_in");
  s.previous_id = textOf(row, "previous_id");
  s.previous_status = textOf(row, "previous_status").value_or("");
  s.previous_attempts = intOr(row, "previous_attempts");
  s.previous_expires_in = intOr(row, "previous_expires_in");
  s.opted_out = intOr(row, "opted_out") != 0;
  s.fence = {intOr(row, "on_allow_list") != 0, intOr(row, "on_deny_list") != 0};
  s.destination.cached_line_type = textOf(row, "line_type");
  s.destination.undeliverable = intOr(row, "undeliverable") != 0;
  s.sender.account_verified = intOr(row, "verified") != 0;
  if (auto paused_until = textOf(row, "paused_until"))
    s.sender.pause =
        messaging::SendingPause{*paused_until, textOf(row, "pause_reason").value_or("")};
  s.price_cents = intOr(row, "price_cents");
  return s;
}

// The refusals a new code can meet, in order, before anything is written.
void checkNewCode(const Caller& caller, const NewVerification& request, const Standing& s,
                  const SendPolicy& policy) {
  if (s.to_number_last_hour >= policy.verifications_per_number_hourly) {
    throw ApiError(
        ErrorCode::RATE_LIMITED,
        {{"reason", "verifications_to_number"}, {"limit", policy.verifications_per_number_hourly}},
        std::max(1, s.number_frees_in));
  }
  if (s.by_account_last_hour >= policy.verifications_per_account_hourly) {
    throw ApiError(ErrorCode::RATE_LIMITED,
                   {{"reason", "verifications_per_account"},
                    {"limit", policy.verifications_per_account_hourly}},
                   std::max(1, s.account_frees_in));
  }
  // A locked code stays locked until it expires: no new one meanwhile.
  if (s.previous_id && s.previous_attempts >= kMaxAttempts) {
    throw ApiError(ErrorCode::VERIFICATION_MAX_ATTEMPTS, {{"reason", "code_locked"}},
                   std::max(1, s.previous_expires_in));
  }
  sending::checkDestinationNumber(caller, request.phone_number);
  if (caller.live()) {
    sending::checkLiveDestination(s.destination.cached_line_type.value_or("unknown"), s.destination,
                                  request.phone_number);
  }
  sending::checkFence(caller, s.fence, request.phone_number);
  sending::checkLiveAccount(caller, false, s.sender);
  if (s.opted_out) throw ApiError(ErrorCode::OPT_OUT_BLOCKED, {{"reason", "OPT_OUT"}});
}

// The app_name goes into a text sent without the recipient's consent: it may name a brand and
// nothing more. The send's own content checks come first, so a link shortener is refused here
// with the code /v1/messages gives it.
void checkAppName(const std::optional<std::string>& app_name) {
  if (!app_name) return;
  if (auto shortener = findLinkShortener(*app_name))
    throw ApiError(ErrorCode::LINK_SHORTENER_BLOCKED, {{"domain", *shortener}});
  if (!isBrandName(*app_name))
    throw validationError("app_name",
                          "must be a brand name: letters, digits, spaces and & ' - . (no link, "
                          "no message)");
}

std::string codeText(const std::optional<std::string>& app_name, const std::string& code) {
  if (app_name) {
    return fmt::format(
        "{0}: your verification code is {1}. Votre code de vérification {0} est "
        "{1}.",
        *app_name, code);
  }
  return fmt::format("Your verification code is {0}. Votre code de vérification est {0}.", code);
}

// The LIVE text: an ordinary outbound message (is_verification, body null, not paced), its
// charge, message.queued and the sms.outbound record. Returns the message id.
std::string queueCodeText(soci::session& sql, const Caller& caller, const std::string& from,
                          const E164& to, long long price_cents, TimePoint now) {
  std::string id = newId("msg");
  if (price_cents > 0) {
    auto posted = db::postLedgerEntry(sql, {caller.account_id, -price_cents, "verification", id,
                                            "Verification code to " + to.str()});
    if (posted.outcome == db::LedgerOutcome::InsufficientBalance)
      throw ApiError(ErrorCode::INSUFFICIENT_BALANCE, {{"required_cents", price_cents}});
  }
  messaging::queueMessage(sql, {.id = id,
                                .account_id = caller.account_id,
                                .from = from,
                                .to = to.str(),
                                .mode = "LIVE",
                                .cost_cents = price_cents,
                                .is_verification = true,
                                .created_at = now});
  return id;
}

}  // namespace

nlohmann::json startVerification(const VerificationServices& services, const Caller& caller,
                                 const NewVerification& request) {
  checkAppName(request.app_name);
  const TimePoint now = services.clock.now();
  bool platform_sender = !request.from;
  std::string from = request.from ? request.from->str() : services.settings.platform_sender;
  db::Session sql(services.db);
  soci::transaction tx(*sql);
  // One account's codes one at a time: two requests cannot both pass the hourly limits.
  std::string lock_key = "verifications:" + caller.account_id;
  *sql << "SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))", soci::use(lock_key);
  if (caller.live() && request.from)
    numbers::requireLiveSendingNumber(*sql, caller.account_id, *request.from);
  Standing standing = readStanding(*sql, caller, services.policy, request.phone_number,
                                   platform_sender ? "" : from, now);
  checkNewCode(caller, request, standing, services.policy);

  std::string id = newId("ver"), mode(toString(caller.mode)), at = formatIso(now);
  std::string code = caller.live() ? crypto::randomDigits(request.code_length)
                                   : std::string(static_cast<size_t>(request.code_length), '0');
  int attempts = 0;
  if (standing.previous_id) {  // superseded; its wrong tries carry over
    attempts = standing.previous_attempts;
    *sql << "UPDATE verifications SET status = 'expired', sealed_code = NULL WHERE id = :id",
        soci::use(*standing.previous_id);
  }
  std::optional<std::string> message_id;
  long long cost = caller.live() ? standing.price_cents : 0;
  if (caller.live())
    message_id = queueCodeText(*sql, caller, from, request.phone_number, cost, now);
  std::string hash = codeHash(services.settings.code_secret, id, code);
  std::string sealed = caller.live() ? crypto::seal(sealKey(services.settings.code_secret),
                                                    codeText(request.app_name, code))
                                     : std::string();
  std::string app_name = request.app_name.value_or(""), message = message_id.value_or("");
  soci::indicator app_ind = request.app_name ? soci::i_ok : soci::i_null,
                  sealed_ind = caller.live() ? soci::i_ok : soci::i_null,
                  message_ind = message_id ? soci::i_ok : soci::i_null;
  *sql << "INSERT INTO verifications (id, account_id, mode, phone_number, from_number, app_name, "
          "code_length, code_hash, sealed_code, attempts, cost_cents, message_id, expires_at, "
          "created_at) VALUES (:id, :a, :m, :p, :f, :app, :len, :hash, :sealed, :attempts, :cost, "
          ":msg, :now::timestamptz + make_interval(mins => :valid), :now2::timestamptz)",
      soci::use(id), soci::use(caller.account_id), soci::use(mode),
      soci::use(request.phone_number.str()), soci::use(from), soci::use(app_name, app_ind),
      soci::use(request.code_length), soci::use(hash), soci::use(sealed, sealed_ind),
      soci::use(attempts), soci::use(cost), soci::use(message, message_ind), soci::use(at),
      soci::use(kValidMinutes), soci::use(at);
  nlohmann::json created = render(*sql, id, now);
  tx.commit();
  if (message_id) services.relay.notify();
  return created;
}

nlohmann::json checkVerification(const VerificationServices& services, const Caller& caller,
                                 const std::string& id, const std::string& code) {
  const TimePoint now = services.clock.now();
  std::string mode(toString(caller.mode)), at = formatIso(now), status, stored_hash;
  int attempts = 0, expired = 0;
  db::Session sql(services.db);
  soci::transaction tx(*sql);
  *sql << "SELECT status, code_hash, attempts, (expires_at <= :now::timestamptz)::int FROM "
          "verifications WHERE id = :id AND account_id = :a AND mode = :m FOR UPDATE",
      soci::use(at), soci::use(id), soci::use(caller.account_id), soci::use(mode),
      soci::into(status), soci::into(stored_hash), soci::into(attempts), soci::into(expired);
  if (!sql->got_data()) throw ApiError(ErrorCode::VERIFICATION_NOT_FOUND);
  if (status == "verified") throw ApiError(ErrorCode::VERIFICATION_ALREADY_VERIFIED);
  if (status == "max_attempts") {
    throw ApiError(ErrorCode::VERIFICATION_MAX_ATTEMPTS, {{"attempts_remaining", 0}});
  }
  if (status == "expired" || expired) {
    if (status == "pending") {
      *sql << "UPDATE verifications SET status = 'expired', sealed_code = NULL WHERE id = :id",
          soci::use(id);
      tx.commit();
    }
    throw ApiError(ErrorCode::VERIFICATION_EXPIRED);
  }
  if (!crypto::constantTimeEquals(codeHash(services.settings.code_secret, id, code), stored_hash)) {
    int remaining = kMaxAttempts - attempts - 1;
    std::string next = remaining <= 0 ? "max_attempts" : "pending";
    *sql << "UPDATE verifications SET attempts = attempts + 1, status = :s WHERE id = :id",
        soci::use(next), soci::use(id);
    tx.commit();
    if (remaining <= 0) {
      throw ApiError(ErrorCode::VERIFICATION_MAX_ATTEMPTS, {{"attempts_remaining", 0}});
    }
    throw ApiError(ErrorCode::VERIFICATION_INVALID_CODE, {{"attempts_remaining", remaining}});
  }
  *sql << "UPDATE verifications SET status = 'verified', verified_at = :now::timestamptz, "
          "sealed_code = NULL WHERE id = :id",
      soci::use(at), soci::use(id);
  nlohmann::json verified = render(*sql, id, now);
  tx.commit();
  return verified;
}

nlohmann::json verification(db::Database& db, const Caller& caller, const std::string& id,
                            TimePoint now) {
  db::Session sql(db);
  std::string mode(toString(caller.mode)), at = formatIso(now), text;
  *sql << "SELECT api_verification(v, :now::timestamptz)::text FROM verifications v WHERE "
          "v.id = :id AND v.account_id = :a AND v.mode = :m",
      soci::use(at), soci::use(id), soci::use(caller.account_id), soci::use(mode), soci::into(text);
  if (!sql->got_data()) throw ApiError(ErrorCode::VERIFICATION_NOT_FOUND);
  return nlohmann::json::parse(text);
}

nlohmann::json verificationPage(db::Database& db, const Caller& caller, int limit, int offset,
                                TimePoint now) {
  db::Session sql(db);
  std::string mode(toString(caller.mode)), at = formatIso(now);
  long long total = 0;
  *sql << "SELECT count(*) FROM verifications WHERE account_id = :a AND mode = :m",
      soci::use(caller.account_id), soci::use(mode), soci::into(total);
  nlohmann::json data = nlohmann::json::array();
  soci::rowset<std::string> rows =
      (sql->prepare << "SELECT api_verification(v, :now::timestamptz)::text FROM verifications v "
                       "WHERE v.account_id = :a AND v.mode = :m ORDER BY v.created_at DESC, v.id "
                       "DESC LIMIT :limit OFFSET :offset",
       soci::use(at), soci::use(caller.account_id), soci::use(mode), soci::use(limit),
       soci::use(offset));
  for (const auto& text : rows) data.push_back(nlohmann::json::parse(text));
  return {{"data", data}, {"total", total}, {"limit", limit}, {"offset", offset}};
}

std::optional<std::string> verificationText(db::Database& db, const std::string& code_secret,
                                            const std::string& message_id) {
  db::Session sql(db);
  std::string sealed;
  soci::indicator sealed_ind = soci::i_null;
  *sql << "SELECT sealed_code FROM verifications WHERE message_id = :id", soci::use(message_id),
      soci::into(sealed, sealed_ind);
  if (!sql->got_data() || sealed_ind != soci::i_ok) return std::nullopt;
  return crypto::openSealed(sealKey(code_secret), sealed);
}

void recordCodeCarrierAnswer(db::Database& db, const messaging::OutgoingMessage& message,
                             const CarrierSendResult& result,
                             const messaging::HandoffDecision& decision, const SendPolicy& policy,
                             TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  messaging::recordCarrierAnswer(*sql, message, result, decision, policy, now);
  *sql << "UPDATE verifications SET sealed_code = NULL WHERE message_id = :id",
      soci::use(message.charge.id);
  tx.commit();
}

}  // namespace smsgw::verifications
