#pragma once
// Double opt-in requests from toll-free numbers: the request text goes out (uncharged), the
// subscriber's YES confirms it (the inbound pipeline, opt_in.h), STOP declines it, and it
// lapses after seven days. A newer request to the same subscriber from the same number
// replaces the older. Records of one mode count only for that mode.

#include <nlohmann/json.hpp>
#include <string>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "domain/phone.h"
#include "topics/outbox_relay.h"

namespace smsgw::compliance {

struct OptInRequest {
  E164 to;    // Canadian
  E164 from;  // one of the account's toll-free numbers
  std::string brand_name;
  std::string language;  // en or fr
};

// The PENDING confirmation. Throws ApiError OPT_OUT_BLOCKED (the subscriber opted out of that
// number) and, for LIVE keys, the sending number's refusals (numbers/sending_number.h).
nlohmann::json requestOptIn(db::Database& db, topics::OutboxRelay& relay, const Caller& caller,
                            const OptInRequest& request, TimePoint now);
// Newest first, lapsed requests marked EXPIRED first.
nlohmann::json optInPage(db::Database& db, const Caller& caller, int limit, int offset,
                         TimePoint now);

}  // namespace smsgw::compliance
