#pragma once
// Email owed to an account's owner about signing in (domain/owner_emails.h): queued in the
// transaction that causes it, sent once that commits (sendOwedEmails), and sent by the webhook
// dispatcher's sweep when the process died in between (sendLeftoverEmails). A row is claimed
// (sent_at set, body cleared: a link in it is a secret) before the mailer sees it, so it goes
// out at most once; a crash between the claim and the mailer loses it, and the owner asks again.

#include <soci/session.h>

#include <string>
#include <vector>

#include "adapters/mailer.h"
#include "db/database.h"
#include "domain/clock.h"
#include "domain/owner_emails.h"

namespace smsgw::accounts {

// The queued email's id.
std::string queueOwnerEmail(soci::session& sql, const std::string& account_id,
                            const std::string& to, const EmailText& text, TimePoint now);

// Sends the queued emails with these ids that nobody sent yet. Never throws: an email that
// cannot be claimed or sent is logged and left to the sweep.
void sendOwedEmails(db::Database& db, Mailer& mailer, const std::vector<std::string>& ids,
                    TimePoint now);

// Sends every email queued before `queued_before` and not sent yet; returns how many.
int sendLeftoverEmails(db::Database& db, Mailer& mailer, TimePoint queued_before, TimePoint now);

}  // namespace smsgw::accounts
