#pragma once
// What staff do, one function per smsgw-admin command. Each prints one JSON object on stdout
// (for people and scripts alike) and throws std::runtime_error with a reason staff can act on.
// Records for Kafka go through the outbox; the running stack's relays publish them.

#include <optional>
#include <string>

#include "adapters/mailer.h"
#include "db/database.h"
#include "domain/carrier_client.h"
#include "domain/clock.h"

namespace smsgw::admin {

struct Staff {
  db::Database& db;
  CarrierClient& carrier;
  Mailer& mailer;
  const Clock& clock;
};

void listAllowanceRequests(Staff& staff, const std::string& status, const std::string& account_id);
// Approval raises the account's phone_number_limit to the granted limit (default: requested).
void decideAllowanceRequest(Staff& staff, const std::string& id, bool approve,
                            std::optional<int> granted_limit, const std::string& note);

// Sets the status of a toll-free number's current verification application, opening one when
// there is none or when `new_application` (the previous one is then cancelled).
void setTollFreeVerification(Staff& staff, const std::string& number, const std::string& status,
                             bool new_application);
void releaseNumberAsStaff(Staff& staff, const std::string& number);
// Prints the numbers left RELEASING, oldest request first, with the carrier's id for each: the
// operator checks them at the carrier, which may still bill them.
void listReleasesInDoubt(Staff& staff);

// Credits the balance (one ledger row) and reactivates numbers suspended for unpaid rent.
void creditAccount(Staff& staff, const std::string& account_id, long long cents,
                   const std::string& note);

// Sets the account's inbound SMS cap per rolling 24 hours (0: unlimited).
void setInboundCap(Staff& staff, const std::string& account_id, int cap);
// Messages per rolling 24 h for one account; -1 returns it to the platform default.
void setDailySendLimit(Staff& staff, const std::string& account_id, int limit);
// Requests per second the account's keys may make (-1: the platform's). An API process reads
// it with the key, so it holds from the next request whose key is not cached (at most
// API_KEY_CACHE_SECONDS for sends).
void setRequestRate(Staff& staff, const std::string& account_id, int per_second);
// The account's own group-broadcast limits (BROADCAST_TOO_LARGE, BROADCAST_LIMIT_REACHED); -1:
// back to the platform's; unset (nullopt): unchanged.
void setBroadcastLimits(Staff& staff, const std::string& account_id, std::optional<int> max_members,
                        std::optional<int> per_day);
// Ends an automatic pause of LIVE SMS sending.
void resumeSending(Staff& staff, const std::string& account_id);
// An account's status, moved by services/accounts/account_standing.h: suspending an ACTIVE
// account (everything it does answers 403; its webhooks become dead letters), reinstating a
// SUSPENDED one, closing one that holds no number for good.
enum class StandingCommand { Suspend, Reinstate, Close };
void changeAccountStanding(Staff& staff, const std::string& account_id, StandingCommand command,
                           const std::string& reason);

// Runs the billing pass as of a time, settling purchases and releases left pending for longer
// than `settle_after` (staff who know the carrier settled an order need not wait); with
// `wait_seconds`, waits until the rent-billing worker has handled every record it published.
void runRent(Staff& staff, TimePoint as_of, const std::optional<std::string>& account_id,
             int wait_seconds, std::chrono::seconds settle_after);

}  // namespace smsgw::admin
