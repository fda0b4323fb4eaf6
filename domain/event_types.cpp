#include "domain/event_types.h"

#include <algorithm>
#include <array>

namespace smsgw {
namespace {

constexpr std::array<std::string_view, 29> kEventTypes = {"message.queued",
                                                          "message.sending",
                                                          "message.sent",
                                                          "message.delivered",
                                                          "message.failed",
                                                          "message.undelivered",
                                                          "message.received",
                                                          "opt_out.recorded",
                                                          "opt_out.reinstated",
                                                          "phone_number.suspended",
                                                          "phone_number.released",
                                                          "account.delivery_warning",
                                                          "account.sending_paused",
                                                          "account.spend_warning",
                                                          "account.inbound_email_capped",
                                                          "account.inbound_sms_capped",
                                                          "email.queued",
                                                          "email.sent",
                                                          "email.delivered",
                                                          "email.delivery_delayed",
                                                          "email.bounced",
                                                          "email.complained",
                                                          "email.rejected",
                                                          "email.failed",
                                                          "email.opened",
                                                          "email.clicked",
                                                          "email.unsubscribed",
                                                          "email.cancelled",
                                                          "email.rescheduled"};

}  // namespace

std::span<const std::string_view> knownEventTypes() {
  return kEventTypes;
}

bool isKnownEventType(std::string_view type) {
  return std::find(kEventTypes.begin(), kEventTypes.end(), type) != kEventTypes.end();
}

}  // namespace smsgw
