#include "services/sending/send_checks.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "domain/destinations.h"
#include "domain/errors.h"
#include "services/messaging/protection.h"
#include "services/numbers/sending_number.h"

namespace smsgw::sending {
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

void refuseLandline(const std::string& line_type) {
  throw ApiError(ErrorCode::NOT_A_MOBILE_NUMBER, {{"line_type", line_type}});
}

void requireDoubleOptIn(soci::session& sql, const Caller& caller, const E164& from,
                        const E164& to) {
  std::string mode(toString(caller.mode));
  int confirmed = 0;
  sql << "SELECT count(*) FROM opt_in_confirmations WHERE account_id = :account AND "
         "mode = :mode AND from_number = :from AND to_number = :to AND status = 'CONFIRMED'",
      soci::use(caller.account_id, "account"), soci::use(mode, "mode"),
      soci::use(from.str(), "from"), soci::use(to.str(), "to"), soci::into(confirmed);
  checkDoubleOptIn(confirmed != 0);
}

}  // namespace

void checkDoubleOptIn(bool confirmed) {
  if (!confirmed) {
    throw ApiError(ErrorCode::NO_CONSENT, {{"reason", "TOLL_FREE_DOUBLE_OPT_IN_REQUIRED"}});
  }
}

void checkDestinationNumber(const Caller& caller, const E164& to) {
  TestDestination magic = caller.live() ? TestDestination::None : testDestination(to);
  if (magic == TestDestination::Landline) refuseLandline("landline");
  if (magic == TestDestination::None && isReservedDestination(to)) {
    throw ApiError(ErrorCode::RESERVED_DESTINATION, {{"to", to.str()}});
  }
}

std::string lookUpLineType(db::Database& db, CarrierClient& carrier, const E164& to,
                           TimePoint now) {
  LookupResult lookup = carrier.lookupNumber(to.str());
  if (!lookup.ok) {
    spdlog::warn("number lookup for a send failed; sending without it");
    return "unknown";
  }
  std::string type = lineTypeName(lookup.line_type);
  db::Session sql(db);
  std::string at = formatIso(now);
  *sql << "INSERT INTO number_lookups (phone_number, line_type, looked_up_at) "
          "VALUES (:number, :type, :now::timestamptz) "
          "ON CONFLICT (phone_number) DO UPDATE SET line_type = excluded.line_type, "
          "looked_up_at = excluded.looked_up_at",
      soci::use(to.str(), "number"), soci::use(type, "type"), soci::use(at, "now");
  return type;
}

void checkLiveDestination(const std::string& line_type, const KnownDestination& known,
                          const E164& to) {
  if (line_type == "landline" || line_type == "voip") refuseLandline(line_type);
  if (known.undeliverable) throw ApiError(ErrorCode::UNDELIVERABLE_NUMBER, {{"to", to.str()}});
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

void checkFence(const Caller& caller, const FencePlacement& fence, const E164& to) {
  if (auto refusal = fenceRefusal(caller, fence)) throw ApiError(*refusal, {{"to", to.str()}});
}

void checkSender(soci::session& sql, const Caller& caller, const E164& from, const E164& to,
                 bool skip_consent_check, const LiveSenderStanding& live,
                 const FencePlacement& fence) {
  if (caller.live()) numbers::requireUsableSendingNumber(live.number, from);
  if (isTollFreeNumber(from)) requireDoubleOptIn(sql, caller, from, to);
  checkFence(caller, fence, to);
  checkLiveAccount(caller, skip_consent_check, live);
}

void checkLiveAccount(const Caller& caller, bool skip_consent_check,
                      const LiveSenderStanding& live) {
  if (!caller.live()) return;
  if (!live.account_verified) throw ApiError(ErrorCode::ACCOUNT_NOT_VERIFIED);
  if (live.pause) {
    throw ApiError(ErrorCode::SENDING_PAUSED,
                   {{"paused_until", live.pause->paused_until}, {"reason", live.pause->reason}});
  }
  if (skip_consent_check) {
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "skip_consent_check_requires_test_key"}});
  }
}

}  // namespace smsgw::sending
