#include "db/procedures/take_request_slot.h"

#include "db/prepared_statement.h"

namespace smsgw::db {

const Procedure kTakeRequestSlot{"take_request_slot",
                                 {{"p_key", "text"},
                                  {"p_interval_us", "bigint"},
                                  {"p_window_us", "bigint"},
                                  {"p_now_us", "bigint"}},
                                 "TABLE(allowed boolean, next_arrival_us bigint)"};

RequestSlot takeRequestSlot(soci::session& sql, const RequestSlotAsk& ask) {
  // Prepared: one call per API request.
  static const PreparedStatement take("take_request_slot",
                                      kTakeRequestSlot.preparedText("allowed, next_arrival_us"));
  std::vector<Row> rows = take.run(
      sql, kTakeRequestSlot.inOrder({{"p_key", ask.key},
                                     {"p_interval_us", std::to_string(ask.interval.count())},
                                     {"p_window_us", std::to_string(ask.window.count())},
                                     {"p_now_us", std::to_string(ask.now_us)}}));
  RequestSlot slot;
  slot.allowed = rows.at(0).at(0) == "t";
  // A refused key has a row; the fallback only guards against one pruned in between.
  slot.next_arrival_us = rows.at(0).at(1) ? integerOf(rows.at(0).at(1)) : ask.now_us;
  return slot;
}

}  // namespace smsgw::db
