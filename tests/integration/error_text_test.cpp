// What a log line may say about a failed statement (db/error_text.h): the server's first line
// and the SQLSTATE, never a bound value or a row (issue 19, item 9).
#include "db/error_text.h"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include "db/database.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::testing;

TEST(ErrorText, AFailedStatementIsDescribedWithoutItsValues) {
  ScratchDatabase scratch;
  db::Database database(scratch.url(), 1);
  db::Session sql(database);
  std::string secret = "whsec_do-not-log-me", phone = "+15145550123";
  *sql << "CREATE TEMP TABLE t (phone text PRIMARY KEY, secret text)";
  *sql << "INSERT INTO t VALUES (:p, :s)", soci::use(phone), soci::use(secret);
  try {
    *sql << "INSERT INTO t VALUES (:p, :s)", soci::use(phone), soci::use(secret);
    FAIL() << "the second insert should violate the key";
  } catch (const soci::soci_error& e) {
    std::string raw = e.what(), logged = db::describeError(e);
    EXPECT_NE(raw.find(secret), std::string::npos) << "SOCI's own text carries the values";
    EXPECT_EQ(logged.find(secret), std::string::npos) << logged;
    EXPECT_EQ(logged.find(phone), std::string::npos) << logged;
    EXPECT_NE(logged.find("duplicate key"), std::string::npos) << logged;
    EXPECT_NE(logged.find("SQLSTATE 23505"), std::string::npos) << logged;
  }
  try {
    std::string bad = "not-a-number-" + secret;
    int n = 0;
    *sql << "SELECT :v::int", soci::use(bad), soci::into(n);
    FAIL();
  } catch (const soci::soci_error& e) {
    std::string logged = db::describeError(e);
    EXPECT_EQ(logged.find(secret), std::string::npos) << logged;
    EXPECT_NE(logged.find("invalid input syntax"), std::string::npos) << logged;
  }
}
