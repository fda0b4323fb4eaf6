#pragma once
// What POST /v1/messages reads before it charges, in one round trip: the SQL function
// send_standing (migration 0007). The checks in send_checks.h decide from it, in the order the
// send refuses; reading everything first refuses nothing that the order would not.

#include <soci/session.h>

#include <optional>
#include <string>

#include "domain/caller.h"
#include "domain/clock.h"
#include "domain/fence.h"
#include "domain/phone.h"
#include "domain/send_policy.h"
#include "services/compliance/consent_check.h"
#include "services/messaging/protection.h"
#include "services/numbers/sending_number.h"

namespace smsgw::sending {

// What the database knows of a LIVE destination: the cached line type (none when never looked
// up or older than the cache keeps it) and whether its carrier failures make it undeliverable.
struct KnownDestination {
  std::optional<std::string> cached_line_type;
  bool undeliverable = false;
};

// The LIVE sender's side: the `from` number, the account's verification and any pause in force.
struct LiveSenderStanding {
  numbers::SendingNumberStanding number;
  bool account_verified = false;
  std::optional<messaging::SendingPause> pause;
};

// Every count the send limits need, and the outbound part price.
struct SendCounts {
  int recipient_last_hour = 0, recipient_last_day = 0;
  int recipient_hour_frees_in = 0, recipient_day_frees_in = 0;  // seconds
  std::optional<int> own_daily_limit;
  int sent_last_day = 0, daily_frees_in = 0;
  int fanout_recipients = 0, fanout_frees_in = 0;
  int part_price_cents = 0;
};

struct SendStanding {
  FencePlacement fence;          // false, false for a key without lists
  KnownDestination destination;  // LIVE only
  LiveSenderStanding sender;     // LIVE only
  compliance::ConsentStanding consent;
  SendCounts counts;
  std::optional<std::string>
      key_row;  // for accounts::confirmCaller (key_callers.h), when asked for
};

// With `confirm_key_hash`, the same round trip also reads that key's row (key_row), so a
// cached caller is confirmed at no extra cost.
SendStanding readSendStanding(soci::session& sql, const Caller& caller, const SendPolicy& policy,
                              const E164& from, const E164& to, const std::string& body_sha256,
                              TimePoint now, const std::optional<std::string>& confirm_key_hash);

}  // namespace smsgw::sending
