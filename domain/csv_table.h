#pragma once
// Reading an uploaded CSV table (RFC 4180, parsed by libcsv) whose first row names the columns:
// one JSON object per data row, column name (trimmed, lowercased) to cell text. Empty cells are
// left out, so "absent" and "empty" read the same. Stateless; thread-safe.

#include <nlohmann/json.hpp>
#include <string_view>

namespace smsgw {

// Throws std::invalid_argument naming the problem: no header row, a malformed file (an
// unclosed quote), a row with more cells than the header, or more than `max_rows` rows.
nlohmann::json readCsvTable(std::string_view csv, size_t max_rows);

}  // namespace smsgw
