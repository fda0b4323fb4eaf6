#include "api/routes/send_checks.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "api/routes/sending_number.h"
#include "domain/destinations.h"
#include "domain/errors.h"
#include "workers/messaging/protection.h"

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

// What the database knows of a destination: the cached line type and whether its carrier
// failures make it undeliverable. One read, on the hot path of every LIVE send.
struct KnownDestination {
  std::optional<std::string> cached_line_type;
  bool undeliverable = false;
};

KnownDestination knownDestination(soci::session& sql, const E164& number,
                                  const SendPolicy& policy) {
  KnownDestination known;
  std::string line_type;
  soci::indicator line_type_ind = soci::i_null;
  int undeliverable = 0;
  sql << "SELECT * FROM known_destination(:n, :cache_days, :failures, :days)",
      soci::use(number.str()), soci::use(policy.lookup_cache_days),
      soci::use(policy.undeliverable_failures), soci::use(policy.undeliverable_days),
      soci::into(line_type, line_type_ind), soci::into(undeliverable);
  if (line_type_ind == soci::i_ok) known.cached_line_type = line_type;
  known.undeliverable = undeliverable != 0;
  return known;
}

// The carrier's lookup, cached. A lookup the carrier cannot answer lets the send through (the
// carrier itself refuses a landline) and is not cached.
std::string lookUpLineType(App& app, soci::session& sql, const E164& number) {
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

// The LIVE sender's side in one read: the `from` number, the account's verification and any
// sending pause in force.
struct LiveSenderStanding {
  SendingNumberStanding number;
  bool account_verified = false;
  std::optional<workers::SendingPause> pause;
};

LiveSenderStanding liveSenderStanding(soci::session& sql, const std::string& account_id,
                                      const E164& from) {
  LiveSenderStanding standing;
  int verified = 0;
  std::string paused_until, pause_reason;
  soci::indicator paused_ind = soci::i_null, reason_ind = soci::i_null;
  SendingNumberColumns number;
  sql << "SELECT * FROM live_sender_standing(:a, :n)", soci::use(account_id), soci::use(from.str()),
      soci::into(verified), soci::into(paused_until, paused_ind),
      soci::into(pause_reason, reason_ind), soci::into(number.status, number.status_ind),
      soci::into(number.number_type, number.type_ind),
      soci::into(number.verification, number.verification_ind);
  standing.account_verified = verified != 0;
  if (paused_ind == soci::i_ok) {
    standing.pause =
        workers::SendingPause{paused_until, reason_ind == soci::i_ok ? pause_reason : ""};
  }
  standing.number = number.standing();
  return standing;
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
  KnownDestination known = knownDestination(*sql, to, app.config.send_policy);
  std::string line_type =
      known.cached_line_type ? *known.cached_line_type : lookUpLineType(app, *sql, to);
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

void checkSender(soci::session& sql, const Caller& caller, const E164& from, const E164& to,
                 bool skip_consent_check) {
  LiveSenderStanding live;
  if (caller.live()) {
    live = liveSenderStanding(sql, caller.account_id, from);
    requireUsableSendingNumber(live.number, from);
  }
  if (isTollFreeNumber(from)) requireDoubleOptIn(sql, caller, from, to);
  // Contact lists arrive with the contacts issue: until then an ALLOW list holds nobody, and
  // a DENY list nobody either.
  if (caller.allow_list_required) throw ApiError(ErrorCode::ALLOW_LIST_BLOCKED, {{"to", to.str()}});
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

}  // namespace smsgw::api
