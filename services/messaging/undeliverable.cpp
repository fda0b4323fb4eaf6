#include "services/messaging/undeliverable.h"

#include <soci/soci.h>

namespace smsgw::messaging {

void recordCarrierFailure(soci::session& sql, const std::string& number, const std::string& code,
                          TimePoint now) {
  std::string last_code = code, at = formatIso(now);
  soci::indicator code_ind = code.empty() ? soci::i_null : soci::i_ok;
  sql << "SELECT count_carrier_failure(:n, :c, :now::timestamptz)", soci::use(number),
      soci::use(last_code, code_ind), soci::use(at);
}

}  // namespace smsgw::messaging
