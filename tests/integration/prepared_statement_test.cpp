// Prepared statements (db/prepared_statement.h) on a real PostgreSQL: prepared once per
// connection, part of the session's transaction, NULLs both ways, errors with their SQLSTATE,
// and prepared again on a new connection.
#include "db/prepared_statement.h"

#include <gtest/gtest.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>

#include "db/database.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

int preparedOnThisConnection(soci::session& sql, const db::PreparedStatement& statement) {
  int count = 0;
  sql << "SELECT count(*) FROM pg_prepared_statements WHERE name = :n", soci::use(statement.name()),
      soci::into(count);
  return count;
}

class PreparedStatementTest : public ::testing::Test {
 protected:
  void SetUp() override { scratch_.exec("CREATE TABLE notes (id int PRIMARY KEY, body text)"); }
  void TearDown() override { db::usePreparedStatements(true); }
  ScratchDatabase scratch_;
};

}  // namespace

TEST_F(PreparedStatementTest, IsPreparedOnceAndAnswersTextAndNulls) {
  db::Database database(scratch_.url(), 1);
  db::PreparedStatement echo("test_echo",
                             "SELECT $1::text, $2::int + 1, NULL::text WHERE $3::boolean");
  db::Session sql(database);
  for (int call = 0; call < 3; ++call) {
    auto rows = echo.run(*sql, {std::string("hé"), std::string("41"), std::string("true")});
    ASSERT_EQ(rows.size(), 1U);
    EXPECT_EQ(rows[0][0], std::optional<std::string>("hé"));
    EXPECT_EQ(db::integerOf(rows[0][1]), 42);
    EXPECT_FALSE(rows[0][2].has_value());
  }
  EXPECT_EQ(preparedOnThisConnection(*sql, echo), 1);
  auto none = echo.run(*sql, {std::nullopt, std::string("1"), std::string("false")});
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(echo.name().rfind("smsgw_test_echo_", 0), 0U);
  auto empty_as_null = echo.run(*sql, {db::nullIfEmpty(""), std::string("1"), std::string("true")});
  ASSERT_EQ(empty_as_null.size(), 1U);
  EXPECT_FALSE(empty_as_null[0][0].has_value()) << "an empty optional id travels as NULL";
  EXPECT_EQ(db::nullIfEmpty("req_1"), std::optional<std::string>("req_1"));
}

TEST_F(PreparedStatementTest, RunsInsideTheSessionsTransaction) {
  db::Database database(scratch_.url(), 1);
  db::PreparedStatement insert("test_insert", "INSERT INTO notes (id, body) VALUES ($1::int, $2)");
  db::Session sql(database);
  {
    soci::transaction tx(*sql);
    insert.run(*sql, {std::string("1"), std::string("kept")});
    tx.commit();
  }
  {
    soci::transaction tx(*sql);
    insert.run(*sql, {std::string("2"), std::string("rolled back")});
    tx.rollback();
  }
  int count = 0;
  *sql << "SELECT count(*) FROM notes", soci::into(count);
  EXPECT_EQ(count, 1);
}

TEST_F(PreparedStatementTest, AnErrorCarriesItsSqlstateAndTheStatementStaysUsable) {
  db::Database database(scratch_.url(), 1);
  db::PreparedStatement insert("test_insert_again",
                               "INSERT INTO notes (id, body) VALUES ($1::int, $2)");
  db::Session sql(database);
  insert.run(*sql, {std::string("1"), std::string("first")});
  try {
    soci::transaction tx(*sql);
    insert.run(*sql, {std::string("1"), std::string("duplicate")});
    FAIL() << "a duplicate key was accepted";
  } catch (const soci::postgresql_soci_error& e) {
    EXPECT_EQ(e.sqlstate(), "23505");
  }
  // Prepared in a transaction that rolled back: PostgreSQL keeps it, and so do we.
  insert.run(*sql, {std::string("2"), std::string("second")});
  EXPECT_EQ(preparedOnThisConnection(*sql, insert), 1);
}

TEST_F(PreparedStatementTest, AReconnectedSessionPreparesAgain) {
  db::Database database(scratch_.url(), 1);
  db::PreparedStatement count("test_count", "SELECT count(*) FROM notes WHERE id > $1::int");
  db::Session sql(database);
  EXPECT_EQ(db::integerOf(count.run(*sql, {std::string("0")})[0][0]), 0);
  sql->reconnect();
  EXPECT_EQ(preparedOnThisConnection(*sql, count), 0);
  EXPECT_EQ(db::integerOf(count.run(*sql, {std::string("0")})[0][0]), 0);
  EXPECT_EQ(preparedOnThisConnection(*sql, count), 1);
}

TEST_F(PreparedStatementTest, OffSendsTheTextUnnamedEveryTime) {
  db::Database database(scratch_.url(), 1, /*prepared_statements=*/false);
  db::PreparedStatement echo("test_echo_off", "SELECT $1::text");
  db::Session sql(database);
  EXPECT_EQ(echo.run(*sql, {std::string("a")})[0][0], std::optional<std::string>("a"));
  EXPECT_EQ(preparedOnThisConnection(*sql, echo), 0);
}
