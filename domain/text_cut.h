#pragma once
// Shortening text a person will read, and keeping every text we write valid UTF-8. A cut by
// bytes splits "é" in two, PostgreSQL refuses the half (SQLSTATE 22021), and a STOP whose
// automatic reply held one was lost with it (issue 49). Here a length counts what a reader sees
// as one character, an extended grapheme cluster (Unicode UAX #29, from ICU): "é" written as
// "e" and a combining accent is one, and so are a flag and a family emoji. Every place that
// shortens text people read goes through cutToCharacters. Pure; safe on any thread.

#include <cstddef>
#include <string>
#include <string_view>

namespace smsgw {

// `text` cut to its first `max_characters` characters, never inside one and never between a
// base character and its combining marks. Invalid UTF-8 in `text` reads as U+FFFD, so what
// comes back is always valid.
std::string cutToCharacters(std::string_view text, size_t max_characters);

// Characters as cutToCharacters counts them.
size_t characterCount(std::string_view text);

bool isValidUtf8(std::string_view text);

// `text` with each invalid UTF-8 sequence replaced by U+FFFD (the replacement character).
std::string validUtf8(std::string_view text);

}  // namespace smsgw
