#pragma once
// Public identifiers: a short type prefix and 24 random base62 characters (about 143 bits),
// so ids are unguessable and say what they name (acc_…, msg_…, wh_…).

#include <string>
#include <string_view>

namespace smsgw {

std::string newId(std::string_view prefix);
std::string randomBase62(size_t length);

}  // namespace smsgw
