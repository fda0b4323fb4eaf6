// Reading uploaded CSV tables: quoting, line endings, header names and the limits.
#include "domain/csv_table.h"

#include <gtest/gtest.h>

using namespace smsgw;

TEST(CsvTable, RowsAreObjectsKeyedByTheHeader) {
  auto rows = readCsvTable(
      "Phone_Number, consent_type\r\n+15145550100,express\r\n"
      "+15145550101,implied\n",
      10);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0],
            nlohmann::json({{"phone_number", "+15145550100"}, {"consent_type", "express"}}));
  EXPECT_EQ(rows[1]["consent_type"], "implied");
}

TEST(CsvTable, QuotedCellsKeepCommasQuotesAndLineBreaks) {
  auto rows = readCsvTable(
      "phone_number,source_description\n+15145550100,\"Signed up at \"\"Le Marché\"\", Laval\"\n"
      "+15145550101,\"two\nlines\"\n",
      10);
  EXPECT_EQ(rows[0]["source_description"], "Signed up at \"Le Marché\", Laval");
  EXPECT_EQ(rows[1]["source_description"], "two\nlines");
}

TEST(CsvTable, EmptyCellsAndShortRowsAreAbsentFields) {
  auto rows = readCsvTable(
      "\xEF\xBB\xBFphone_number,consent_type,source_url\n+15145550100,,\n"
      "+15145550101\n",
      10);
  EXPECT_EQ(rows[0], nlohmann::json({{"phone_number", "+15145550100"}}))
      << "and the byte-order mark is ignored";
  EXPECT_EQ(rows[1], nlohmann::json({{"phone_number", "+15145550101"}}));
}

TEST(CsvTable, MalformedFilesAndLimitsAreRefused) {
  EXPECT_THROW(readCsvTable("", 10), std::invalid_argument);
  EXPECT_THROW(readCsvTable("phone_number\n\"+1514555", 10), std::invalid_argument);
  EXPECT_THROW(readCsvTable("phone_number\n+15145550100,extra\n", 10), std::invalid_argument);
  EXPECT_THROW(readCsvTable("phone_number\n1\n2\n3\n", 2), std::invalid_argument);
  EXPECT_EQ(readCsvTable("phone_number\n1\n2\n", 2).size(), 2u);
  EXPECT_TRUE(readCsvTable("phone_number\n", 2).empty());
}
