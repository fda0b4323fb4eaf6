#include "domain/destinations.h"

#include <cctype>
#include <set>
#include <sstream>

namespace smsgw {

extern const char* const kLinkShortenersList;

namespace {

// The exchange (NXX) of a NANP number: "+1" then the 3-digit area code then these 3 digits.
std::string_view exchangeOf(const std::string& e164) {
  if (e164.size() != 12 || e164.rfind("+1", 0) != 0) return {};
  return std::string_view(e164).substr(5, 3);
}

const std::set<std::string, std::less<>>& shortenerDomains() {
  static const std::set<std::string, std::less<>> domains = [] {
    std::set<std::string, std::less<>> parsed;
    std::istringstream lines(kLinkShortenersList);
    for (std::string line; std::getline(lines, line);) {
      while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
        line.pop_back();
      if (!line.empty() && line[0] != '#') parsed.insert(line);
    }
    return parsed;
  }();
  return domains;
}

bool isHostCharacter(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-';
}

// `host` or one of its parent domains is a shortener: "go.bit.ly" matches "bit.ly".
std::optional<std::string> shortenerOf(std::string host) {
  for (auto& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (!host.empty() && (host.back() == '.' || host.back() == '-')) host.pop_back();
  std::string_view candidate = host;
  while (candidate.find('.') != std::string_view::npos) {
    if (shortenerDomains().count(candidate)) return std::string(candidate);
    candidate.remove_prefix(candidate.find('.') + 1);
  }
  return std::nullopt;
}

}  // namespace

bool isReservedDestination(const E164& number) {
  std::string_view exchange = exchangeOf(number.str());
  if (exchange.empty()) return false;
  if (exchange == "555" || exchange == "958" || exchange == "959") return true;
  return exchange.substr(1) == "11";  // N11: 211, 311, 411, 611, 811, 911
}

TestDestination testDestination(const E164& number) {
  const std::string& n = number.str();
  if (exchangeOf(n) != "555") return TestDestination::None;
  std::string_view line = std::string_view(n).substr(8);
  if (line == "0100") return TestDestination::CarrierRefusal;
  if (line == "0101") return TestDestination::Undelivered;
  if (line == "0102") return TestDestination::Landline;
  return TestDestination::None;
}

std::optional<std::string> findLinkShortener(std::string_view body) {
  // Every run of host characters is a candidate: schemes, paths and punctuation split them off,
  // so "https://bit.ly/x", "bit.ly/x" and "(see bit.ly)" all yield "bit.ly".
  size_t i = 0;
  while (i < body.size()) {
    if (!isHostCharacter(body[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < body.size() && isHostCharacter(body[i])) ++i;
    if (auto found = shortenerOf(std::string(body.substr(start, i - start)))) return found;
  }
  return std::nullopt;
}

}  // namespace smsgw
