#pragma once
// Webhook signing, compatible with the Standard Webhooks scheme:
//   signature = "v1," + base64(HMAC-SHA256(key, "{event id}.{timestamp}.{raw body}"))
// where the signing secret shown to customers is "whsec_" + base64(key).

#include <string>
#include <string_view>

namespace smsgw {

std::string newWebhookSecret();  // whsec_ + base64(32 random bytes)
// Throws std::invalid_argument on a secret not of that form.
std::string signWebhook(std::string_view secret, std::string_view event_id, long long timestamp,
                        std::string_view body);
// True when any space-separated signature in `header` matches.
bool verifyWebhook(std::string_view secret, std::string_view event_id, long long timestamp,
                   std::string_view body, std::string_view header);

}  // namespace smsgw
