// smsgw-receipt: consumes carrier.receipts and settles messages; a periodic pass raises spend
// warnings, purges message bodies past the retention period and deletes published outbox rows
// past theirs, and what OAuth no longer needs.
#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "adapters/settings.h"
#include "services/messaging/protection.h"
#include "services/messaging/retention.h"
#include "services/oauth/retention.h"
#include "topics/catalogue.h"
#include "workers/receipt/receipt_handler.h"

int main(int argc, char** argv) {
  using namespace smsgw;
  SendPolicy policy;
  workers::WorkerSpec spec("receipt", {std::string(topics::kCarrierReceipts.name)});
  std::chrono::milliseconds protection_interval{60000};
  ProcessSettings settings("smsgw-receipt",
                           "Settles messages from carrier receipts; spend warnings and retention");
  workers::addWorkerSettings(settings, spec);
  addSendPolicySettings(settings, policy);
  settings.add("ACCOUNT_PROTECTION_INTERVAL_MS", protection_interval,
               "how often spend warnings and the retention purge run");
  settings.parse(argc, argv);
  auto protect = [&policy](workers::WorkerContext& context) {
    {
      db::Session sql(context.db);
      soci::transaction tx(*sql);
      int warned = messaging::raiseSpendWarnings(*sql, policy);
      tx.commit();
      if (warned) context.relay.notify();
    }
    db::Session sql(context.db);
    int purged = 0;
    while (int batch = messaging::purgeExpiredBodies(*sql, policy, 1000)) purged += batch;
    if (purged) spdlog::info("retention: purged {} message bodies", purged);
    int deleted = 0;
    while (int batch = messaging::purgePublishedOutbox(*sql, policy, 5000)) deleted += batch;
    if (deleted) spdlog::info("retention: deleted {} published outbox rows", deleted);
    if (int ended = oauth::endExpiredGrants(*sql, context.clock.now()))
      spdlog::info("retention: ended {} OAuth connections whose refresh token expired", ended);
    if (int pruned = oauth::pruneSpent(*sql))
      spdlog::info("retention: deleted {} spent OAuth codes, tokens and clients", pruned);
  };
  spec.periodic.push_back({"spend warnings and retention", protection_interval, protect});
  return workers::runWorker(spec, [&](workers::WorkerContext& context) {
    return topics::RecordHandler(workers::ReceiptHandler(context, policy));
  });
}
