#include "services/numbers/billing_pass.h"

#include <soci/soci.h>

#include "db/outbox.h"
#include "services/numbers/purchase.h"
#include "services/numbers/release.h"
#include "topics/catalogue.h"
#include "topics/records.h"

namespace smsgw::numbers {
namespace {

constexpr int kBatch = 200;

// Claims up to kBatch numbers matching `due_condition` and publishes a record for each, in one
// transaction. `due_condition` compares with :as_of and yields the period in the 2nd column.
int publishBatch(db::Database& db, const BillingPassOptions& options, const char* action,
                 const std::string& due_condition, const std::string& period_expression) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string as_of = formatIso(options.as_of);
  std::string now = formatIso(options.now);
  std::string account = options.account_id.value_or("");
  int republish_seconds = static_cast<int>(options.republish_after.count());
  soci::rowset<soci::row> rows =
      (sql->prepare << "WITH due AS (SELECT id, " + period_expression +
                           " AS period FROM phone_numbers WHERE " + due_condition +
                           " AND (billing_enqueued_at IS NULL OR billing_enqueued_at <= "
                           ":now::timestamptz - make_interval(secs => :republish)) "
                           "AND (:account = '' OR account_id = :account) "
                           "ORDER BY id LIMIT :batch FOR UPDATE SKIP LOCKED) "
                           "UPDATE phone_numbers p SET billing_enqueued_at = :now::timestamptz "
                           "FROM due WHERE p.id = due.id RETURNING p.id, due.period",
       soci::use(as_of, "as_of"), soci::use(now, "now"), soci::use(republish_seconds, "republish"),
       soci::use(account, "account"), soci::use(kBatch, "batch"));
  int published = 0;
  for (const auto& row : rows) {
    topics::BillingRent record{row.get<std::string>(0), action, row.get<int>(1), as_of};
    db::enqueueOutbox(*sql, std::string(topics::kBillingRent.name), record.phone_number_id,
                      record.toJson().dump());
    ++published;
  }
  tx.commit();
  return published;
}

int publishAll(db::Database& db, const BillingPassOptions& options, const char* action,
               const std::string& due_condition, const std::string& period_expression) {
  int total = 0, published = 0;
  do {
    published = publishBatch(db, options, action, due_condition, period_expression);
    total += published;
  } while (published == kBatch);
  return total;
}

}  // namespace

BillingPassReport runBillingPass(db::Database& db, CarrierClient& carrier,
                                 const BillingPassOptions& options) {
  BillingPassReport report;
  report.rent_due = publishAll(db, options, "collect",
                               "status = 'ACTIVE' AND next_rent_due_at <= :as_of::timestamptz",
                               "rent_periods_paid + 1");
  report.grace_expired = publishAll(
      db, options, "expire", "status = 'SUSPENDED' AND grace_ends_at <= :as_of::timestamptz", "0");
  report.purchases_settled =
      settleStalePurchases(db, carrier, options.stale_after, options.now, options.account_id);
  report.releases_finished =
      retryStaleReleases(db, carrier, options.stale_after, options.now, options.account_id);
  report.releases_in_doubt =
      releasesInDoubt(db, options.stale_after, options.now, options.account_id);
  return report;
}

int rentRecordsOutstanding(db::Database& db, TimePoint as_of,
                           const std::optional<std::string>& account_id) {
  db::Session sql(db);
  std::string as_of_text = formatIso(as_of), account = account_id.value_or("");
  int count = 0;
  *sql << "SELECT count(*) FROM phone_numbers WHERE billing_enqueued_at IS NOT NULL "
          "AND (:account = '' OR account_id = :account) "
          "AND ((status = 'ACTIVE' AND next_rent_due_at <= :as_of::timestamptz) "
          "  OR (status = 'SUSPENDED' AND grace_ends_at <= :as_of::timestamptz))",
      soci::use(account, "account"), soci::use(as_of_text, "as_of"), soci::into(count);
  return count;
}

}  // namespace smsgw::numbers
