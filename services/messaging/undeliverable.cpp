#include "services/messaging/undeliverable.h"

#include "db/procedures/count_carrier_failure.h"

namespace smsgw::messaging {

void recordCarrierFailure(soci::session& sql, const std::string& number, const std::string& code,
                          TimePoint now) {
  db::countCarrierFailure(sql, {number, code, now});
}

}  // namespace smsgw::messaging
