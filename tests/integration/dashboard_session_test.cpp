// A dashboard session's keys with the clock in the test's hands: they serve until the session's
// end and read as revoked from that instant, whatever the cookie's own Max-Age says.
#include <gtest/gtest.h>

#include "db/database.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "services/accounts/dashboard_sessions.h"
#include "services/accounts/key_callers.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

ErrorCode refusalOf(db::Database& database, const std::string& secret, TimePoint at) {
  try {
    accounts::lookUpCaller(database, hashApiKey(secret), at);
  } catch (const ApiError& e) {
    return e.code();
  }
  ADD_FAILURE() << "the key was still accepted";
  return ErrorCode::INTERNAL_ERROR;
}

}  // namespace

TEST(DashboardSession, ItsKeysEndWithTheSession) {
  ScratchDatabase scratch;
  db::Database database(scratch.url(), 2);
  std::string id = newId("acc"), email = id + "@example.ca";
  scratch.exec("INSERT INTO accounts (id, name, email, password_hash) VALUES ('" + id +
               "', 'T', '" + email + "', '" + crypto::hashPassword("a long passphrase") + "')");
  TimePoint opened = *parseIso("2026-11-27T09:00:00Z");
  auto session =
      accounts::signIn(database, {email, "a long passphrase", std::nullopt, "127.0.0.1", "test"},
                       std::chrono::seconds(3600), opened);
  EXPECT_EQ(session.body["expires_at"], "2026-11-27T10:00:00.000Z");

  for (const auto& secret : {session.secrets.live, session.secrets.test}) {
    Caller caller =
        accounts::lookUpCaller(database, hashApiKey(secret), opened + std::chrono::minutes(59));
    EXPECT_EQ(caller.account_id, id);
    EXPECT_EQ(refusalOf(database, secret, opened + std::chrono::minutes(60)),
              ErrorCode::API_KEY_REVOKED);
  }
}
