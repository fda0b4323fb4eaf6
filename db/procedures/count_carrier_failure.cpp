#include "db/procedures/count_carrier_failure.h"

#include <soci/soci.h>

namespace smsgw::db {

const Procedure kCountCarrierFailure{
    "count_carrier_failure",
    {{"p_number", "text"}, {"p_code", "text"}, {"p_now", "timestamp with time zone"}},
    "void"};

void countCarrierFailure(soci::session& sql, const CarrierFailure& failure) {
  std::string at = formatIso(failure.now);
  soci::indicator code_ind = failure.carrier_code.empty() ? soci::i_null : soci::i_ok;
  sql << kCountCarrierFailure.callText("1"), soci::use(failure.phone_number, "p_number"),
      soci::use(failure.carrier_code, code_ind, "p_code"), soci::use(at, "p_now");
}

}  // namespace smsgw::db
