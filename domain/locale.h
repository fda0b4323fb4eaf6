#pragma once
// Picks the response language from an Accept-Language header (RFC 9110 q-values).

#include <string_view>

namespace smsgw {

enum class Language { English, French };

// English unless French has the strictly higher weight among en/fr ranges; "*" counts as English.
Language preferredLanguage(std::string_view accept_language);

}  // namespace smsgw
