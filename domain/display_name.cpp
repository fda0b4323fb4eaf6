#include "domain/display_name.h"

#include <unicode/uchar.h>
#include <unicode/uspoof.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>

namespace smsgw {
namespace {

bool isHidden(UChar32 c) {
  switch (u_charType(c)) {
    case U_CONTROL_CHAR:
    case U_FORMAT_CHAR:
    case U_LINE_SEPARATOR:
    case U_PARAGRAPH_SEPARATOR:
    case U_PRIVATE_USE_CHAR:
    case U_SURROGATE:
      return true;
    default:
      return false;
  }
}

struct CheckerDeleter {
  void operator()(USpoofChecker* checker) const { uspoof_close(checker); }
};

// The letters and digits of `text`, lower-cased: case, spaces and punctuation do not change how
// a name reads.
std::string lowerAlphanumerics(std::string_view text) {
  std::string lower;
  for (int32_t at = 0, length = static_cast<int32_t>(text.size()); at < length;) {
    UChar32 c;
    U8_NEXT(text.data(), at, length, c);
    if (c < 0) continue;
    c = u_tolower(c);
    if (!u_isalnum(c)) continue;
    std::array<char, U8_MAX_LENGTH> bytes{};
    int32_t written = 0;
    U8_APPEND_UNSAFE(bytes.data(), written, c);
    lower.append(bytes.data(), static_cast<size_t>(written));
  }
  return lower;
}

// What `text` looks like: its UTS #39 skeleton, without case, spaces or punctuation, so two
// texts that read alike ("0fficial", "official") have the same one.
std::string lookalike(std::string_view text) {
  std::string lower = lowerAlphanumerics(text);
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<USpoofChecker, CheckerDeleter> checker(uspoof_open(&status));
  if (U_FAILURE(status)) return lower;
  std::string skeleton(lower.size() * 4 + 16, '\0');
  int32_t size =
      uspoof_getSkeletonUTF8(checker.get(), 0, lower.c_str(), static_cast<int32_t>(lower.size()),
                             skeleton.data(), static_cast<int32_t>(skeleton.size()), &status);
  if (U_FAILURE(status)) return lower;
  skeleton.resize(static_cast<size_t>(size));
  return lowerAlphanumerics(skeleton);
}

}  // namespace

DisplayNameProblem displayNameProblem(std::string_view name) {
  for (int32_t at = 0, length = static_cast<int32_t>(name.size()); at < length;) {
    UChar32 c;
    U8_NEXT(name.data(), at, length, c);
    if (c < 0 || u_charType(c) == U_UNASSIGNED) return DisplayNameProblem::NotText;
    if (isHidden(c)) return DisplayNameProblem::HiddenCharacter;
  }
  static const std::array<std::string, 3> kClaims = {lookalike("SMS Gateway"), lookalike("smsgw"),
                                                     lookalike("official")};
  std::string seen = lookalike(name);
  bool claims = std::any_of(kClaims.begin(), kClaims.end(), [&](const std::string& claim) {
    return seen.find(claim) != std::string::npos;
  });
  return claims ? DisplayNameProblem::ClaimsToBeUs : DisplayNameProblem::None;
}

bool isBrandName(std::string_view name) {
  bool letter = false;
  UChar32 previous = ' ';
  for (int32_t at = 0, length = static_cast<int32_t>(name.size()); at < length;) {
    UChar32 c;
    U8_NEXT(name.data(), at, length, c);
    if (c < 0) return false;
    bool word_character = u_isalpha(c) || u_isdigit(c) || u_charType(c) == U_NON_SPACING_MARK;
    if (u_isalpha(c)) letter = true;
    if (previous == '.' && word_character) return false;  // a dot inside a word: a domain
    if (c == ' ' && previous == ' ') return false;        // leading or doubled spaces
    if (!word_character && c != ' ' && c != '&' && c != '\'' && c != 0x2019 && c != '-' && c != '.')
      return false;
    previous = c;
  }
  return letter && previous != ' ';
}

}  // namespace smsgw
