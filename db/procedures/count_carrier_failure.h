#pragma once
// The SQL function count_carrier_failure (db/functions): one more carrier failure in a row for
// a destination, the counter is_undeliverable reads (procedure.h says how it is called).

#include <soci/session.h>

#include <string>

#include "db/procedures/procedure.h"
#include "domain/clock.h"

namespace smsgw::db {

struct CarrierFailure {
  std::string phone_number;
  std::string carrier_code;  // empty: none
  TimePoint now;
};

extern const Procedure kCountCarrierFailure;

void countCarrierFailure(soci::session& sql, const CarrierFailure& failure);

}  // namespace smsgw::db
