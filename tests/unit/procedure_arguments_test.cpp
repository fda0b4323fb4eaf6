// A prepared call's values are given by argument name (db/procedures/procedure.h): they reach
// their parameters whatever order they are written in, and a slip is refused before PostgreSQL
// sees it.
#include <gtest/gtest.h>

#include "db/procedures/procedure.h"

using smsgw::db::Cell;
using smsgw::db::Procedure;

namespace {

const Procedure kSend{
    "send_text", {{"p_from", "text"}, {"p_to", "text"}, {"p_note", "text"}}, "void"};

}  // namespace

TEST(ProcedureArguments, ValuesTakeTheDeclarationsOrderWhateverOrderTheyAreGivenIn) {
  std::vector<Cell> cells = kSend.inOrder(
      {{"p_to", "+14165550123"}, {"p_note", std::nullopt}, {"p_from", "+15145550100"}});
  EXPECT_EQ(cells, (std::vector<Cell>{"+15145550100", "+14165550123", std::nullopt}));
  EXPECT_EQ(kSend.preparedText("*"),
            "SELECT * FROM send_text(p_from => $1::text, p_to => $2::text, p_note => $3::text)");
}

TEST(ProcedureArguments, AMissingAnUnknownOrATwiceGivenArgumentIsRefused) {
  EXPECT_THROW(kSend.inOrder({{"p_from", "a"}, {"p_to", "b"}}), std::logic_error);
  EXPECT_THROW(kSend.inOrder({{"p_from", "a"}, {"p_to", "b"}, {"p_note", "c"}, {"p_body", "d"}}),
               std::logic_error);
  EXPECT_THROW(kSend.inOrder({{"p_from", "a"}, {"p_to", "b"}, {"p_note", "c"}, {"p_from", "d"}}),
               std::logic_error);
}
