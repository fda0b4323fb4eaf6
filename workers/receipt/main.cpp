// smsgw-receipt: consumes carrier.receipts and settles messages; a periodic pass raises spend
// warnings, purges message bodies past the retention period and deletes published outbox rows
// past theirs, and what OAuth no longer needs.
#include <spdlog/spdlog.h>

#include "adapters/settings.h"
#include "services/accounts/sign_in_retention.h"
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
  spec.batches = true;
  ProcessSettings settings("smsgw-receipt",
                           "Settles messages from carrier receipts; spend warnings and retention");
  workers::addWorkerSettings(settings, spec);
  addSendPolicySettings(settings, policy);
  settings.add("ACCOUNT_PROTECTION_INTERVAL_MS", protection_interval,
               "how often spend warnings and the retention purge run");
  settings.parse(argc, argv);
  auto protect = [&policy](workers::WorkerContext& context) {
    if (messaging::raiseSpendWarnings(context.db, policy, context.clock.now()) > 0)
      context.relay.notify();
    auto purged = messaging::purgeExpired(context.db, policy, context.clock.now());
    if (purged.bodies) spdlog::info("retention: purged {} message bodies", purged.bodies);
    if (purged.outbox_rows)
      spdlog::info("retention: deleted {} published outbox rows", purged.outbox_rows);
    auto oauth_spent = oauth::pruneExpired(context.db, context.clock.now());
    if (oauth_spent.grants_ended)
      spdlog::info("retention: ended {} OAuth connections whose refresh token expired",
                   oauth_spent.grants_ended);
    if (oauth_spent.rows_pruned)
      spdlog::info("retention: deleted {} spent OAuth codes, tokens and clients",
                   oauth_spent.rows_pruned);
    if (int pruned = accounts::pruneSignInLeftovers(context.db, context.clock.now()))
      spdlog::info("retention: deleted {} spent sign-in links, sent emails and lapsed browsers",
                   pruned);
  };
  spec.periodic.push_back({"spend warnings and retention", protection_interval, protect});
  return workers::runWorker(spec, [&](workers::WorkerContext& context) {
    return workers::receiptHandlers(context, policy);
  });
}
