#pragma once
// What the owner of a failing endpoint is told (spec "Delivery rules" 6): one email one hour
// into a failure streak, one when the endpoint is disabled. Each notice is marked sent in the
// same statement that finds it, so several dispatchers never send it twice; a crash between
// that commit and the mailer loses the email rather than repeating it.

#include <soci/session.h>

#include <string>

#include "adapters/mailer.h"
#include "domain/clock.h"

namespace smsgw::webhooks {

// Emails the owners of endpoints failing for an hour or more that were not told about this
// streak yet. Returns how many were told.
int noticeFailingEndpoints(soci::session& sql, Mailer& mailer, TimePoint now);
void noticeDisabledEndpoint(soci::session& sql, Mailer& mailer, const std::string& webhook_id);

}  // namespace smsgw::webhooks
