// Backup and restore (docs/operations.md): a pg_dump taken mid-traffic, restored into a new
// cluster, the pipeline pointed at it. What a restore promises: nothing accepted after the backup
// point is silently dropped. Each such send is either in the restored database or reported by
// `smsgw-admin restore-audit`, and so is each message the restored database holds as QUEUED
// though it had already gone to the carrier or failed before it, which --settle records as the
// sender had (before the settling, the sender's sweep texted two of eight again). The relay
// re-bases the outbox on the new cluster (migration 0029), so sends made after the restore leave at
// once. The reconciler is kept aside: it would hide a record the relay never published.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <set>

#include "domain/clock.h"
#include "tests/integration/pipeline_fixture.h"
#include "tests/support/accounts.h"
#include "tests/support/local_cluster.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

class RestoreTest : public PipelineTest {
 protected:
  RestoreTest()
      : PipelineTest({{"RECONCILER_INTERVAL_MS", "3600000"},
                      {"RECONCILE_QUEUED_AFTER_SECONDS", "3600"},
                      {"RECONCILE_EVENTS_AFTER_SECONDS", "3600"}}) {}

  long long countIn(db::Database& database, const std::string& text) {
    db::Session sql(database);
    long long value = 0;
    *sql << text, soci::into(value);
    return value;
  }
  static std::string idList(const std::vector<AcceptedSend>& sends) {
    std::string list;
    for (const auto& send : sends) list += (list.empty() ? "'" : ", '") + send.id + "'";
    return list;
  }
};

}  // namespace

TEST_F(RestoreTest, WhatCameAfterABackupIsPresentOrReportedAndNewSendsLeaveAtOnce) {
  constexpr int kBefore = 10, kQueuedAtBackup = 8, kRefused = 2, kAfter = 12, kAfterRestore = 5;
  LiveCustomer customer = factory_.make(2, 40);
  auto delivered = [&](const std::string& ids, int n) {
    return eventually(
        [&] {
          return query("SELECT count(*) FROM messages WHERE status = 'DELIVERED' AND id IN (" +
                       ids + ")") == n;
        },
        120);
  };
  auto before = send(customer, kBefore, "before");
  ASSERT_TRUE(delivered(idList(before), kBefore)) << statusCounts();
  // Queued at the backup point: accepted, published, not yet taken by a sender.
  stack_.stopWorkers(Worker::Sender);
  auto queued = send(customer, kQueuedAtBackup, "queued");
  ASSERT_TRUE(eventually([&] { return query("SELECT count(*) FROM outbox_pending") == 0; }, 30));

  // A key made before the backup, to be revoked after it.
  HttpTestClient api(stack_.apiUrl());
  Reply made = api.call("POST", "/v1/api-keys", bearer(customer.key),
                        {{"mode", "LIVE"}, {"label", "revoked after the backup"}});
  ASSERT_EQ(made.status, 201) << made.raw_body;
  const std::string revoked_key = made.body["id"];

  auto backup_at = std::chrono::system_clock::now() - std::chrono::seconds(1);
  std::string dump = std::filesystem::temp_directory_path() / ("restore-" + randomBase62(8));
  runOrThrow(LocalCluster::program("pg_dump") + " -Fc -f " + dump + " '" + scratch_.url() + "'",
             "pg_dump");

  // After the backup point: the queued ones go out, two of them refused by the carrier (failed
  // before it took them, refunded), and more are accepted and delivered.
  for (int i = 0; i < kRefused; ++i) {
    std::string to = text("SELECT to_number FROM messages WHERE id = '" + queued[i].id + "'");
    auto armed =
        httpRequest("POST", stack_.simUrl() + "/sim/faults", {{"Content-Type", "application/json"}},
                    nlohmann::json{{"kind", "send"}, {"mode", "refuse"}, {"to", to}}.dump(),
                    std::chrono::seconds(10));
    ASSERT_EQ(armed.status, 201) << armed.body;
  }
  stack_.startWorkers(Worker::Sender);
  auto queuedAre = [&](const std::string& status) {
    return query("SELECT count(*) FROM messages WHERE status = '" + status + "' AND id IN (" +
                 idList(queued) + ")");
  };
  ASSERT_TRUE(eventually(
      [&] {
        return queuedAre("DELIVERED") == kQueuedAtBackup - kRefused &&
               queuedAre("FAILED") == kRefused;
      },
      120))
      << statusCounts();
  const std::string refused_codes = text(
      "SELECT string_agg(id || ' ' || error_code, ', ' ORDER BY id) FROM messages WHERE "
      "status = 'FAILED' AND id IN (" +
      idList(queued) + ")");
  auto after = send(customer, kAfter, "after");
  ASSERT_TRUE(delivered(idList(after), kAfter)) << statusCounts();
  // What raises no event (the account trail, migration 0031): a signup, a key made, the key
  // made before the backup revoked, a top-up.
  TestAccount newcomer = signUp(api);
  Reply extra = api.call("POST", "/v1/api-keys", bearer(customer.key),
                         {{"mode", "LIVE"}, {"label", "made after the backup"}});
  ASSERT_EQ(extra.status, 201) << extra.raw_body;
  const std::string extra_key = extra.body["id"];
  ASSERT_EQ(api.call("DELETE", "/v1/api-keys/" + revoked_key, bearer(customer.key)).status, 204);
  Reply topped = api.call("POST", "/v1/accounts/" + customer.id + "/top-ups", bearer(customer.key),
                          {{"amount_cents", 700}, {"payment_token", "tok_sandbox_ok"}});
  ASSERT_EQ(topped.status, 201) << topped.raw_body;
  const std::string top_up_id = topped.body["id"];
  ASSERT_TRUE(eventually([&] { return query("SELECT count(*) FROM outbox_pending") == 0; }, 30));

  // The database is lost; the backup is restored into a new cluster.
  LocalCluster cluster;
  std::string restored_url = cluster.createDatabase("smsgw");
  runOrThrow(LocalCluster::program("pg_restore") + " --no-owner -d '" + restored_url + "' " + dump,
             "pg_restore");
  std::filesystem::remove(dump);
  stack_.moveDatabase(restored_url);
  db::Database restored(restored_url, 2);

  // Before anything starts: the audit names what the restore lost.
  auto run = stack_.admin({"restore-audit", "--since", formatIso(backup_at), "--settle"});
  ASSERT_EQ(run.exit_code, 0) << run.log;
  auto audit = nlohmann::json::parse(run.out);
  EXPECT_EQ(countIn(restored, "SELECT count(*) FROM messages WHERE id IN (" + idList(after) + ")"),
            0);
  EXPECT_EQ(audit["missing_by_type"].value("message.queued", 0), kAfter)
      << "each send accepted after the backup point is reported: " << run.out;
  std::set<std::string> sent_again = audit["sent_again_messages"];
  std::set<std::string> queued_ids;
  for (const auto& send : queued) queued_ids.insert(send.id);
  EXPECT_EQ(sent_again, queued_ids)
      << "the messages queued at the backup point had gone out since: " << run.out;
  EXPECT_EQ(audit["accounts"], nlohmann::json::array({customer.id}));
  // Settled as the sender had recorded them: those the carrier took SENDING under its id, those
  // it refused FAILED with the same code and refunded; none sent again.
  EXPECT_EQ(std::set<std::string>(audit["settled"]), queued_ids);
  EXPECT_TRUE(audit["unsettled"].empty());
  EXPECT_EQ(audit["consumer_group_deleted"], true) << "the audit leaves no group behind";
  // The account trail: the signup (with its two keys), the key made, the top-up are reported;
  // the key revoked after the backup was active again here, and is revoked again.
  EXPECT_EQ(audit["missing_accounts"], nlohmann::json::array({newcomer.id})) << run.out;
  std::set<std::string> newcomers_keys, others_keys;
  for (const auto& key : audit["missing_keys"])
    (key["account_id"] == newcomer.id ? newcomers_keys : others_keys).insert(key["key_id"]);
  EXPECT_EQ(newcomers_keys.size(), 2u) << run.out;
  EXPECT_EQ(others_keys, std::set<std::string>{extra_key}) << run.out;
  EXPECT_EQ(audit["missing_ledger_entries"],
            nlohmann::json::array({{{"account_id", customer.id},
                                    {"kind", "top_up"},
                                    {"reference_id", top_up_id},
                                    {"amount_cents", 700},
                                    {"at", audit["missing_ledger_entries"][0]["at"]}}}))
      << run.out;
  EXPECT_EQ(audit["keys_revoked_again"], nlohmann::json::array({revoked_key})) << run.out;
  EXPECT_TRUE(audit["keys_active_again"].empty()) << run.out;
  EXPECT_EQ(audit["trail_unreadable"], 0);
  EXPECT_EQ(countIn(restored, "SELECT count(*) FROM api_keys WHERE id = '" + revoked_key +
                                  "' AND revoked_at IS NOT NULL"),
            1);
  EXPECT_EQ(countIn(restored,
                    "SELECT count(*) FROM messages WHERE status = 'SENDING' AND "
                    "carrier_message_id IS NOT NULL AND id IN (" +
                        idList(queued) + ")"),
            kQueuedAtBackup - kRefused);
  {
    db::Session sql(restored);
    std::string codes;
    *sql << "SELECT coalesce(string_agg(id || ' ' || error_code, ', ' ORDER BY id), '') FROM "
            "messages WHERE "
            "status = 'FAILED' AND cost_cents = 0 AND id IN (" +
                idList(queued) + ")",
        soci::into(codes);
    EXPECT_EQ(codes, refused_codes) << "the refused ones failed as before, refunded";
  }
  EXPECT_EQ(
      countIn(restored, "SELECT balance_cents FROM accounts WHERE id = '" + customer.id + "'"),
      countIn(restored, "SELECT sum(amount_cents) FROM ledger_entries WHERE account_id = '" +
                            customer.id + "'"));

  // The pipeline on the restored database: sends made now leave at once (before the re-base,
  // their outbox rows sorted below the old cluster's position and never left).
  ASSERT_TRUE(stack_.startApiAndWorkers());
  std::vector<AcceptedSend> now =
      sendAsCarefulClient(stack_.apiUrl(), customer, kAfterRestore, "restored").accepted;
  ASSERT_EQ(now.size(), static_cast<size_t>(kAfterRestore));
  EXPECT_TRUE(eventually(
      [&] {
        return countIn(restored,
                       "SELECT count(*) FROM messages WHERE status = 'DELIVERED' AND "
                       "id IN (" +
                           idList(now) + ")") == kAfterRestore;
      },
      120));
  // Every row leaves, those the deliveries just wrote among them (before the re-base, rows
  // written after the restore stayed below the old position for good).
  EXPECT_TRUE(eventually(
      [&] { return countIn(restored, "SELECT count(*) FROM outbox_pending") == 0; }, 30));
  EXPECT_EQ(countIn(restored, "SELECT count(*) FROM reconciler_fixes"), 0);
  // Nothing texted twice: the settled ones were not handed to the carrier again.
  EXPECT_EQ(countIn(restored, "SELECT count(*) FROM messages WHERE status = 'QUEUED'"), 0);
  auto texts = nlohmann::json::parse(
      httpRequest("GET", stack_.simUrl() + "/sim/messages", {}, "", std::chrono::seconds(30)).body);
  EXPECT_EQ(texts["data"].size(),
            static_cast<size_t>(kBefore + kQueuedAtBackup - kRefused + kAfter + kAfterRestore));
}
