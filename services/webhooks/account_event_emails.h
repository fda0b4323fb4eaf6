#pragma once
// Account events (spec "Account events": "each is also sent by email to the owner") go to the
// owner's email address once per event, however often the record is replayed.

#include <soci/session.h>

#include "adapters/mailer.h"
#include "topics/records.h"

namespace smsgw::webhooks {

// Nothing for other event types; returns whether an email was sent.
bool emailAccountEvent(soci::session& sql, Mailer& mailer, const topics::EventRecord& event);

}  // namespace smsgw::webhooks
