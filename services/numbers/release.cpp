#include "services/numbers/release.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <optional>
#include <vector>

#include "services/numbers/number_decisions.h"
#include "topics/event_writer.h"

namespace smsgw::numbers {
namespace {

// Which numbers a release may start from.
enum class From { AnyHeld, ExpiredSuspension };

// Marks the number RELEASING; returns its E.164 when it may be released.
std::optional<std::string> beginRelease(db::Database& db, const std::string& number_id,
                                        const std::string& reason, From from, TimePoint as_of,
                                        TimePoint now) {
  db::Session sql(db);
  std::string phone_number;
  std::string as_of_text = formatIso(as_of), now_text = formatIso(now);
  int expired_only = from == From::ExpiredSuspension ? 1 : 0;
  // A number already RELEASING keeps the status to return to and its first reason.
  *sql << "UPDATE phone_numbers SET "
          "status_before_release = CASE WHEN status = 'RELEASING' THEN status_before_release "
          "ELSE status END, "
          "release_reason = CASE WHEN status = 'RELEASING' THEN release_reason ELSE :reason END, "
          "status = 'RELEASING', release_requested_at = :now::timestamptz "
          "WHERE id = :id AND CASE WHEN :expired_only = 1 "
          "THEN status = 'SUSPENDED' AND grace_ends_at <= :as_of::timestamptz "
          "ELSE status IN ('ACTIVE', 'SUSPENDED', 'RELEASING') END "
          "RETURNING phone_number",
      soci::use(reason, "reason"), soci::use(now_text, "now"), soci::use(number_id, "id"),
      soci::use(expired_only, "expired_only"), soci::use(as_of_text, "as_of"),
      soci::into(phone_number);
  if (!sql->got_data()) return std::nullopt;
  return phone_number;
}

void markReleased(db::Database& db, const std::string& number_id, const std::string& reason,
                  TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string account_id, phone_number, stored_reason;
  std::string released_at = formatIso(now);
  // The carrier no longer holds it, so it is released whatever a concurrent refusal wrote.
  *sql << "UPDATE phone_numbers SET status = 'RELEASED', released_at = :at::timestamptz, "
          "release_reason = COALESCE(release_reason, :reason), status_before_release = NULL, "
          "suspended_at = NULL, grace_ends_at = NULL "
          "WHERE id = :id AND status <> 'RELEASED' "
          "RETURNING account_id, phone_number, release_reason",
      soci::use(released_at), soci::use(reason), soci::use(number_id), soci::into(account_id),
      soci::into(phone_number), soci::into(stored_reason);
  if (sql->got_data()) {
    topics::raiseEvent(*sql, {account_id,
                              "phone_number.released",
                              true,
                              {{"phone_number", phone_number},
                               {"phone_number_id", number_id},
                               {"reason", stored_reason}}});
  }
  tx.commit();
}

void restore(db::Database& db, const std::string& number_id) {
  db::Session sql(db);
  *sql << "UPDATE phone_numbers SET status = status_before_release, status_before_release = NULL, "
          "release_reason = NULL, release_requested_at = NULL "
          "WHERE id = :id AND status = 'RELEASING'",
      soci::use(number_id);
}

ReleaseResult finishRelease(db::Database& db, CarrierClient& carrier, const std::string& number_id,
                            const std::string& phone_number, const std::string& reason,
                            TimePoint now) {
  std::string carrier_number_id;
  {
    db::Session sql(db);
    soci::indicator ind = soci::i_null;
    *sql << "SELECT carrier_number_id FROM phone_numbers WHERE id = :id", soci::use(number_id),
        soci::into(carrier_number_id, ind);
    if (ind != soci::i_ok) carrier_number_id.clear();  // bought before ids were kept
  }
  NumberOperation release = carrier.releaseNumber(phone_number, carrier_number_id);
  std::optional<NumberHolding> holding;
  if (release.kind == NumberOperation::Kind::Failed) holding = carrier.numberHolding(phone_number);
  ReleaseVerdict verdict = judgeRelease(release.kind, holding);
  if (verdict == ReleaseVerdict::Released) {
    markReleased(db, number_id, reason, now);
    return {ReleaseResult::Kind::Released, "", ""};
  }
  if (verdict == ReleaseVerdict::StillHeld) {
    restore(db, number_id);
    return {ReleaseResult::Kind::CarrierRefused, release.error_code, release.error_detail};
  }
  spdlog::warn("release of {} left pending: carrier unreachable ({})", phone_number,
               release.error_detail);
  return {ReleaseResult::Kind::Pending, release.error_code, release.error_detail};
}

}  // namespace

ReleaseResult releaseNumber(db::Database& db, CarrierClient& carrier, const std::string& number_id,
                            const std::string& reason, TimePoint now) {
  auto phone_number = beginRelease(db, number_id, reason, From::AnyHeld, now, now);
  if (!phone_number) return {ReleaseResult::Kind::NotReleasable, "", ""};
  return finishRelease(db, carrier, number_id, *phone_number, reason, now);
}

ReleaseResult releaseExpiredSuspension(db::Database& db, CarrierClient& carrier,
                                       const std::string& number_id, TimePoint as_of,
                                       TimePoint now) {
  auto phone_number =
      beginRelease(db, number_id, kSuspendedGraceExpired, From::ExpiredSuspension, as_of, now);
  if (!phone_number) return {ReleaseResult::Kind::NotReleasable, "", ""};
  return finishRelease(db, carrier, number_id, *phone_number, kSuspendedGraceExpired, now);
}

int retryStaleReleases(db::Database& db, CarrierClient& carrier, std::chrono::seconds stale_after,
                       TimePoint now, const std::optional<std::string>& account_id) {
  struct Stale {
    std::string id, phone_number, reason;
  };
  std::vector<Stale> stale;
  {
    db::Session sql(db);
    int seconds = static_cast<int>(stale_after.count());
    std::string account = account_id.value_or(""), now_text = formatIso(now);
    soci::rowset<soci::row> rows =
        (sql->prepare << "SELECT id, phone_number, release_reason FROM phone_numbers "
                         "WHERE status = 'RELEASING' AND release_requested_at <= "
                         ":now::timestamptz - make_interval(secs => :seconds) "
                         "AND (:account = '' OR account_id = :account) "
                         "ORDER BY release_requested_at LIMIT 100",
         soci::use(now_text, "now"), soci::use(seconds, "seconds"), soci::use(account, "account"));
    for (const auto& row : rows) {
      stale.push_back({row.get<std::string>(0), row.get<std::string>(1), row.get<std::string>(2)});
    }
  }
  int finished = 0;
  for (const auto& number : stale) {
    auto result = finishRelease(db, carrier, number.id, number.phone_number, number.reason, now);
    if (result.kind != ReleaseResult::Kind::Pending) ++finished;
  }
  return finished;
}

int releasesInDoubt(db::Database& db, std::chrono::seconds stale_after, TimePoint now,
                    const std::optional<std::string>& account_id) {
  db::Session sql(db);
  int seconds = static_cast<int>(stale_after.count());
  std::string account = account_id.value_or(""), now_text = formatIso(now);
  int in_doubt = 0;
  *sql << "SELECT count(*) FROM phone_numbers WHERE status = 'RELEASING' "
          "AND release_requested_at <= :now::timestamptz - make_interval(secs => :seconds) "
          "AND (:account = '' OR account_id = :account)",
      soci::use(now_text, "now"), soci::use(seconds, "seconds"), soci::use(account, "account"),
      soci::into(in_doubt);
  return in_doubt;
}

}  // namespace smsgw::numbers
