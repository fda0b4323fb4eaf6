#include "services/messaging/undeliverable.h"

#include <soci/soci.h>

namespace smsgw::messaging {

void recordCarrierFailure(soci::session& sql, const std::string& number, const std::string& code) {
  std::string last_code = code;
  soci::indicator code_ind = code.empty() ? soci::i_null : soci::i_ok;
  sql << "INSERT INTO undeliverable_numbers AS u (phone_number, consecutive_failures, "
         "last_failure_at, last_failure_code) VALUES (:n, 1, now(), :c) "
         "ON CONFLICT (phone_number) DO UPDATE SET consecutive_failures = "
         "u.consecutive_failures + 1, last_failure_at = now(), last_failure_code = "
         "excluded.last_failure_code",
      soci::use(number), soci::use(last_code, code_ind);
}

}  // namespace smsgw::messaging
