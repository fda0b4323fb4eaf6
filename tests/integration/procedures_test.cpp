// The typed boundary to PL/pgSQL (db/procedures/procedure.h): every wrapper's declaration is
// the function's signature in pg_proc, and every verdict the function's source can return is
// one its enum knows. A change on one side only fails here, not in production.
#include <gtest/gtest.h>
#include <soci/soci.h>

#include <regex>
#include <set>

#include "db/database.h"
#include "db/procedures/procedure.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

struct Catalogued {
  int overloads = 0;
  std::string arguments, result, source;
};

Catalogued catalogued(db::Database& database, std::string_view name) {
  db::Session sql(database);
  Catalogued found;
  std::string function(name);
  *sql << "SELECT count(*) OVER (), pg_get_function_identity_arguments(p.oid), "
          "pg_get_function_result(p.oid), p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = "
          "p.pronamespace WHERE n.nspname = 'public' AND p.proname = :name LIMIT 1",
      soci::use(function), soci::into(found.overloads), soci::into(found.arguments),
      soci::into(found.result), soci::into(found.source);
  return found;
}

std::string declaredArguments(const db::Procedure& procedure) {
  std::string text;
  for (const auto& argument : procedure.arguments) {
    if (!text.empty()) text += ", ";
    text += std::string(argument.name) + " " + std::string(argument.type);
  }
  return text;
}

// The texts the function answers with: a literal assigned to its outcome, selected as its
// first column in RETURN QUERY, or chosen by a CASE that is assigned to it.
std::set<std::string> verdictsIn(const std::string& source) {
  static const std::regex kVerdict(
      R"((?:outcome\s*:=\s*(?:CASE\b[^;]*?)?|RETURN QUERY SELECT\s+|THEN\s+|ELSE\s+)'([A-Z][A-Z_]+)')");
  std::set<std::string> found;
  for (std::sregex_iterator it(source.begin(), source.end(), kVerdict), end; it != end; ++it)
    found.insert((*it)[1]);
  return found;
}

}  // namespace

TEST(Procedures, EveryWrapperMatchesItsFunctionInPgProc) {
  ScratchDatabase scratch;
  db::Database database(scratch.url(), 1);
  ASSERT_FALSE(db::typedProcedures().empty());
  for (const db::Procedure* procedure : db::typedProcedures()) {
    SCOPED_TRACE(std::string(procedure->name));
    Catalogued function = catalogued(database, procedure->name);
    ASSERT_EQ(function.overloads, 1) << "one function of that name, or named notation is ambiguous";
    EXPECT_EQ(function.arguments, declaredArguments(*procedure));
    EXPECT_EQ(function.result, procedure->result);
    auto verdicts = procedure->verdictList();
    std::set<std::string> declared(verdicts.begin(), verdicts.end());
    EXPECT_EQ(verdictsIn(function.source), declared)
        << "the verdicts the function returns and the wrapper's enum differ";
  }
}

// The test above would miss a drift its own reading of the source missed: it must find each
// kind of verdict the functions use.
TEST(Procedures, TheVerdictReaderFindsEveryFormAVerdictTakes) {
  EXPECT_EQ(verdictsIn("outcome := 'HELD'; RETURN QUERY SELECT 'GONE', NULL::text; "
                       "outcome := CASE WHEN x IS NULL THEN 'SHORT' ELSE 'POSTED' END; "
                       "UPDATE m SET status = 'QUEUED'"),
            (std::set<std::string>{"HELD", "GONE", "SHORT", "POSTED"}));
}
