#include "domain/csv_table.h"

#include <csv.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace smsgw {
namespace {

struct Collected {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> current;
};

void onField(void* text, size_t length, void* data) {
  static_cast<Collected*>(data)->current.emplace_back(static_cast<const char*>(text), length);
}

void onRowEnd(int, void* data) {
  auto* collected = static_cast<Collected*>(data);
  collected->rows.push_back(std::move(collected->current));
  collected->current.clear();
}

std::string columnName(std::string text) {
  text.erase(0, text.find_first_not_of(" \t"));
  text.erase(text.find_last_not_of(" \t") + 1);
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

nlohmann::json readCsvTable(std::string_view csv, size_t max_rows) {
  if (csv.starts_with("\xEF\xBB\xBF")) csv.remove_prefix(3);  // a byte-order mark from Excel
  csv_parser parser;
  if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
    throw std::runtime_error("csv parser could not start");
  }
  std::unique_ptr<csv_parser, decltype(&csv_free)> guard(&parser, csv_free);
  Collected collected;
  if (csv_parse(&parser, csv.data(), csv.size(), onField, onRowEnd, &collected) != csv.size() ||
      csv_fini(&parser, onField, onRowEnd, &collected) != 0) {
    throw std::invalid_argument(std::string("malformed CSV: ") + csv_strerror(csv_error(&parser)) +
                                " near row " + std::to_string(collected.rows.size() + 1));
  }
  if (collected.rows.empty()) throw std::invalid_argument("no header row");
  std::vector<std::string> columns;
  for (const auto& cell : collected.rows.front()) columns.push_back(columnName(cell));
  if (collected.rows.size() - 1 > max_rows) {
    throw std::invalid_argument("more than " + std::to_string(max_rows) + " rows");
  }
  nlohmann::json rows = nlohmann::json::array();
  for (size_t r = 1; r < collected.rows.size(); ++r) {
    const auto& cells = collected.rows[r];
    if (cells.size() > columns.size()) {
      throw std::invalid_argument("row " + std::to_string(r + 1) +
                                  " has more cells than the header");
    }
    nlohmann::json row = nlohmann::json::object();
    for (size_t c = 0; c < cells.size(); ++c) {
      if (!cells[c].empty() && !columns[c].empty()) row[columns[c]] = cells[c];
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace smsgw
