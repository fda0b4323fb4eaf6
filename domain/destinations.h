#pragma once
// What the gateway knows about a destination before any carrier sees it: reserved exchanges,
// the TEST-mode magic numbers, and link shorteners in a body.

#include <optional>
#include <string>
#include <string_view>

#include "domain/phone.h"

namespace smsgw {

// 555 numbers, N11 service codes and the carrier test exchanges 958/959: never a handset.
bool isReservedDestination(const E164& number);

// TEST-mode destinations that simulate what live traffic can meet (documented in docs/decisions.md,
// "Messaging"). They sit in the fictional 555-01XX range, so a LIVE key is refused them as
// reserved.
enum class TestDestination { None, CarrierRefusal, Undelivered, Landline };
TestDestination testDestination(const E164& number);

// The first host in `body` that is a link shortener (or a subdomain of one), if any.
std::optional<std::string> findLinkShortener(std::string_view body);

}  // namespace smsgw
