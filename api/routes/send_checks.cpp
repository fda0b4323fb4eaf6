#include "api/routes/send_checks.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "api/routes/sending_number.h"
#include "domain/destinations.h"
#include "domain/errors.h"
#include "workers/messaging/protection.h"
#include "workers/messaging/undeliverable.h"

namespace smsgw::api {
namespace {

const char* lineTypeName(LineType type) {
  switch (type) {
    case LineType::Mobile:
      return "mobile";
    case LineType::Landline:
      return "landline";
    case LineType::Voip:
      return "voip";
    case LineType::Unknown:
      break;
  }
  return "unknown";
}

// The carrier's lookup, cached. A lookup the carrier cannot answer lets the send through (the
// carrier itself refuses a landline) and is not cached.
std::string lineTypeOf(App& app, soci::session& sql, const E164& number) {
  std::string cached;
  sql << "SELECT line_type FROM number_lookups WHERE phone_number = :n AND looked_up_at > now() - "
         "make_interval(days => :d)",
      soci::use(number.str()), soci::use(app.config.send_policy.lookup_cache_days),
      soci::into(cached);
  if (sql.got_data()) return cached;
  LookupResult lookup = app.carrier.lookupNumber(number.str());
  if (!lookup.ok) {
    spdlog::warn("number lookup for a send failed; sending without it");
    return "unknown";
  }
  std::string type = lineTypeName(lookup.line_type);
  sql << "INSERT INTO number_lookups (phone_number, line_type) VALUES (:n, :t) "
         "ON CONFLICT (phone_number) DO UPDATE SET line_type = excluded.line_type, "
         "looked_up_at = now()",
      soci::use(number.str()), soci::use(type);
  return type;
}

void refuseLandline(const std::string& line_type) {
  throw ApiError(ErrorCode::NOT_A_MOBILE_NUMBER, {{"line_type", line_type}});
}

void requireDoubleOptIn(soci::session& sql, const Caller& caller, const E164& from,
                        const E164& to) {
  std::string mode(toString(caller.mode));
  int confirmed = 0;
  sql << "SELECT count(*) FROM opt_in_confirmations WHERE account_id = :a AND mode = :m AND "
         "from_number = :f AND to_number = :t AND status = 'CONFIRMED'",
      soci::use(caller.account_id), soci::use(mode), soci::use(from.str()), soci::use(to.str()),
      soci::into(confirmed);
  if (!confirmed) {
    throw ApiError(ErrorCode::NO_CONSENT, {{"reason", "TOLL_FREE_DOUBLE_OPT_IN_REQUIRED"}});
  }
}

}  // namespace

void checkDestination(App& app, const Caller& caller, const E164& to) {
  TestDestination magic = caller.live() ? TestDestination::None : testDestination(to);
  if (magic == TestDestination::Landline) refuseLandline("landline");
  if (magic == TestDestination::None && isReservedDestination(to)) {
    throw ApiError(ErrorCode::RESERVED_DESTINATION, {{"to", to.str()}});
  }
  if (!caller.live()) return;  // TEST sends never touch live lookups or live failures
  db::Session sql(app.db);
  std::string line_type = lineTypeOf(app, *sql, to);
  if (line_type == "landline" || line_type == "voip") refuseLandline(line_type);
  if (workers::isUndeliverable(*sql, to.str(), app.config.send_policy)) {
    throw ApiError(ErrorCode::UNDELIVERABLE_NUMBER, {{"to", to.str()}});
  }
}

SegmentCount checkBody(const std::string& body) {
  SegmentCount count = countSegments(body);
  if (count.parts > kMaxParts || count.characters > kMaxCharacters) {
    throw ApiError(ErrorCode::MESSAGE_TOO_LONG, {{"parts", count.parts},
                                                 {"characters", count.characters},
                                                 {"max_parts", kMaxParts},
                                                 {"max_characters", kMaxCharacters}});
  }
  if (auto shortener = findLinkShortener(body)) {
    throw ApiError(ErrorCode::LINK_SHORTENER_BLOCKED, {{"domain", *shortener}});
  }
  return count;
}

void checkSender(soci::session& sql, const Caller& caller, const E164& from, const E164& to,
                 bool skip_consent_check) {
  if (caller.live()) requireLiveSendingNumber(sql, caller.account_id, from);
  if (isTollFreeNumber(from)) requireDoubleOptIn(sql, caller, from, to);
  // Contact lists arrive with the contacts issue: until then an ALLOW list holds nobody, and
  // a DENY list nobody either.
  if (caller.allow_list_required) throw ApiError(ErrorCode::ALLOW_LIST_BLOCKED, {{"to", to.str()}});
  if (!caller.live()) return;
  int verified = 0;
  sql << "SELECT (verified_phone IS NOT NULL)::int FROM accounts WHERE id = :id",
      soci::use(caller.account_id), soci::into(verified);
  if (!verified) throw ApiError(ErrorCode::ACCOUNT_NOT_VERIFIED);
  if (auto pause = workers::activeSendingPause(sql, caller.account_id)) {
    throw ApiError(ErrorCode::SENDING_PAUSED,
                   {{"paused_until", pause->paused_until}, {"reason", pause->reason}});
  }
  if (skip_consent_check) {
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "skip_consent_check_requires_test_key"}});
  }
}

}  // namespace smsgw::api
