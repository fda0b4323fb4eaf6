#include "domain/text_cut.h"

#include <unicode/ubrk.h>
#include <unicode/utext.h>
#include <unicode/utf8.h>

#include <memory>

namespace smsgw {
namespace {

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD

struct BreakIteratorCloser {
  void operator()(UBreakIterator* iterator) const { ubrk_close(iterator); }
};
struct TextCloser {
  void operator()(UText* text) const { utext_close(text); }
};

// Where each character of valid UTF-8 `text` ends, in bytes, until `visit` returns false.
// Without ICU's iterator (it could not open), code points stand in for characters.
template <typename Visit>
void forEachCharacterEnd(std::string_view text, Visit visit) {
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<UText, TextCloser> utext(
      utext_openUTF8(nullptr, text.data(), static_cast<int64_t>(text.size()), &status));
  std::unique_ptr<UBreakIterator, BreakIteratorCloser> characters(
      ubrk_open(UBRK_CHARACTER, "", nullptr, 0, &status));
  if (U_SUCCESS(status)) ubrk_setUText(characters.get(), utext.get(), &status);
  if (U_FAILURE(status)) {
    for (int32_t at = 0, length = static_cast<int32_t>(text.size()); at < length;) {
      U8_FWD_1(text.data(), at, length);
      if (!visit(static_cast<size_t>(at))) return;
    }
    return;
  }
  for (int32_t end = ubrk_next(characters.get()); end != UBRK_DONE;
       end = ubrk_next(characters.get())) {
    if (!visit(static_cast<size_t>(end))) return;
  }
}

}  // namespace

bool isValidUtf8(std::string_view text) {
  for (int32_t at = 0, length = static_cast<int32_t>(text.size()); at < length;) {
    UChar32 c;
    U8_NEXT(text.data(), at, length, c);
    if (c < 0) return false;
  }
  return true;
}

std::string validUtf8(std::string_view text) {
  if (isValidUtf8(text)) return std::string(text);
  std::string valid;
  valid.reserve(text.size() + 8);
  for (int32_t at = 0, length = static_cast<int32_t>(text.size()); at < length;) {
    int32_t start = at;
    UChar32 c;
    U8_NEXT(text.data(), at, length, c);
    if (c < 0)
      valid.append(kReplacementCharacter);
    else
      valid.append(text.data() + start, static_cast<size_t>(at - start));
  }
  return valid;
}

std::string cutToCharacters(std::string_view text, size_t max_characters) {
  std::string valid = validUtf8(text);
  size_t kept_bytes = 0, characters = 0;
  if (max_characters > 0) {
    forEachCharacterEnd(valid, [&](size_t end) {
      kept_bytes = end;
      return ++characters < max_characters;
    });
  }
  valid.resize(kept_bytes);
  return valid;
}

size_t characterCount(std::string_view text) {
  std::string valid = validUtf8(text);
  size_t characters = 0;
  forEachCharacterEnd(valid, [&](size_t) {
    ++characters;
    return true;
  });
  return characters;
}

}  // namespace smsgw
