#include "services/compliance/platform_texts.h"

#include "domain/ids.h"
#include "domain/sms_segments.h"
#include "services/messaging/queued_messages.h"

namespace smsgw::compliance {

std::string queuePlatformText(soci::session& sql, const PlatformText& text, TimePoint now) {
  std::string id = newId("msg");
  messaging::queueMessage(sql, {.id = id,
                                .account_id = text.account_id,
                                .from = text.from,
                                .to = text.to,
                                .body = text.body,
                                .parts = countSegments(text.body).parts,
                                .mode = text.mode,
                                .auto_reply_keyword = text.auto_reply_keyword,
                                .created_at = now});
  return id;
}

}  // namespace smsgw::compliance
