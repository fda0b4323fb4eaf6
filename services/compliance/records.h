#pragma once
// Writing CASL records: consents (recorded, revoked) and opt-outs (recorded, reinstated).
// Each works in the caller's transaction and is safe to repeat: an opt-out already in force is
// not recorded twice (a unique index), a reinstatement needs an opt-out in force.

#include <soci/session.h>

#include <optional>
#include <string>
#include <vector>

#include "domain/clock.h"

namespace smsgw::compliance {

// A consent as a request or a batch row gives it, already validated.
struct ConsentDraft {
  std::string phone_number;  // E.164
  std::string consent_type;  // EXPRESS or IMPLIED
  std::optional<std::string> source_description;
  std::optional<std::string> source_ip;
  std::optional<std::string> source_url;
  std::optional<std::string> relationship_type;
  std::optional<std::string> last_transaction_date;  // as given
  std::optional<TimePoint> expires_at;               // implied only: when it lapses
};

// Returns the new consent's id.
std::string recordConsent(soci::session& sql, const std::string& account_id,
                          const std::string& mode, const ConsentDraft& draft,
                          const std::optional<std::string>& batch_id = std::nullopt);
// What recordNewConsents did with its drafts.
struct ConsentTally {
  int opted_out = 0;             // an opt-out in force wins: not recorded
  int already_recorded = 0;      // an ACTIVE consent of the same type: not recorded again
  int express = 0, implied = 0;  // recorded now
};
// Records, in one statement, each draft whose number has no opt-out in force and no ACTIVE
// consent of its type. The drafts must name distinct numbers.
ConsentTally recordNewConsents(soci::session& sql, const std::string& account_id,
                               const std::string& mode, const std::vector<ConsentDraft>& drafts,
                               const std::string& batch_id);
// Revokes every ACTIVE consent of the number as of `now`; returns how many.
int revokeConsents(soci::session& sql, const std::string& account_id, const std::string& mode,
                   const std::string& phone_number, const std::string& reason, TimePoint now);

struct OptOutDraft {
  std::string account_id;
  std::string mode;
  std::string phone_number;                       // the subscriber
  std::string from_number;                        // the account's number it applies to
  std::optional<std::string> keyword;             // the whole reply; none through the API
  std::optional<std::string> inbound_message_id;  // the STOP text
};

// True when recorded (as of `now`); false when one was already in force.
bool recordOptOut(soci::session& sql, const OptOutDraft& draft, TimePoint now);
// Reinstates the opt-out in force (START, UNSTOP) as of `now`; true when there was one.
bool reinstateOptOut(soci::session& sql, const OptOutDraft& draft, TimePoint now);

}  // namespace smsgw::compliance
