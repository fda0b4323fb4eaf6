#pragma once
// Public identifiers: a short type prefix and 24 base62 characters, so ids say what they name
// (acc_…, msg_…, wh_…): 8 of the creation time in milliseconds, then 16 random ones (about 95
// bits, unguessable). The time first makes ids written later sort later, so the primary-key
// index (and the ledger's reference index, which holds message ids) grows at its right edge
// instead of at a random page of an index larger than memory (ops/bench/RESULTS.md, 5,000,000
// messages).

#include <chrono>
#include <string>
#include <string_view>

namespace smsgw {

// `made_at` is the time the id carries (a test passes its own).
std::string newId(std::string_view prefix,
                  std::chrono::system_clock::time_point made_at = std::chrono::system_clock::now());
std::string randomBase62(size_t length);

}  // namespace smsgw
