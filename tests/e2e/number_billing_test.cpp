// Allowance requests, toll-free verification and rent billing through the running stack:
// the API, the rent-billing worker, the webhook dispatcher and smsgw-admin as staff use it.
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "domain/rent_period.h"
#include "tests/support/numbers.h"
#include "tests/support/test_env.h"
#include "tests/support/webhook_receiver.h"
#include "tests/support/webhooks.h"

using namespace smsgw::testing;

namespace {

std::string rentRun(const TestAccount& account, const std::string& as_of) {
  AdminRun run = runAdmin("rent run --as-of " + as_of + " --account " + account.id + " --wait 60");
  EXPECT_EQ(run.exit_code, 0) << run.output.dump();
  EXPECT_EQ(run.output.value("outstanding", -1), 0) << run.output.dump();
  return run.output.dump();
}

std::string statusOf(HttpTestClient& api, const TestAccount& account,
                     const nlohmann::json& number) {
  return api
      .call("GET", "/v1/phone-numbers/" + number["id"].get<std::string>(), bearer(account.live_key))
      .body["status"];
}

// `extra_days` after the start of the rent period `months` after a number was provisioned.
std::string monthsAfter(const nlohmann::json& number, int months, int extra_days = 1) {
  auto provisioned = smsgw::parseIso(number["provisioned_at"].get<std::string>());
  return smsgw::formatIso(smsgw::rentPeriodStart(*provisioned, months + 1) +
                          std::chrono::days(extra_days));
}

}  // namespace

TEST(AllowanceRequests, OnePendingAtATimeDecidedByStaffThreeADay) {
  HttpTestClient api(apiUrl());
  TestAccount account = signUpAndFund(api);
  std::string path = "/v1/phone-numbers/allowance-requests";
  auto request = [&](const nlohmann::json& body) {
    return api.call("POST", path, bearer(account.live_key), body);
  };
  EXPECT_EQ(
      api.call("POST", path, bearer(account.test_key), {{"requested_limit", 9}, {"reason", "x"}})
          .body["code"],
      "LIVE_KEY_REQUIRED");
  EXPECT_EQ(request({{"requested_limit", 9}}).body["details"][0]["field"], "reason");
  EXPECT_EQ(request({{"requested_limit", "9"}, {"reason", "x"}}).body["details"][0]["field"],
            "requested_limit");
  Reply not_more = request({{"requested_limit", 5}, {"reason", "the same as today"}});
  EXPECT_EQ(not_more.status, 422);
  EXPECT_EQ(not_more.body["code"], "INVALID_ALLOWANCE_REQUEST");

  Reply first = request({{"requested_limit", 12}, {"reason", "Opening stores in Quebec"}});
  ASSERT_EQ(first.status, 201) << first.raw_body;
  EXPECT_EQ(first.body["status"], "PENDING");
  EXPECT_EQ(first.body["limit_at_request"], 5);
  EXPECT_EQ(first.body["held_at_request"], 0);
  EXPECT_TRUE(first.body["granted_limit"].is_null());
  Reply pending = request({{"requested_limit", 20}, {"reason", "more"}});
  EXPECT_EQ(pending.status, 409);
  EXPECT_EQ(pending.body["code"], "ALLOWANCE_REQUEST_PENDING");

  AdminRun denied =
      runAdmin("allowance deny " + first.body["id"].get<std::string>() + " --note 'Tell us more'");
  ASSERT_EQ(denied.exit_code, 0);
  EXPECT_EQ(denied.output["allowance_request"]["status"], "DENIED");
  Reply second = request({{"requested_limit", 8}, {"reason", "Just two stores"}});
  ASSERT_EQ(second.status, 201);
  AdminRun approved =
      runAdmin("allowance approve " + second.body["id"].get<std::string>() + " --note Welcome");
  ASSERT_EQ(approved.exit_code, 0);
  EXPECT_EQ(approved.output["allowance_request"]["granted_limit"], 8);
  EXPECT_EQ(api.call("GET", "/v1/accounts/" + account.id, bearer(account.live_key))
                .body["account"]["phone_number_limit"],
            8);
  EXPECT_EQ(runAdmin("allowance approve " + second.body["id"].get<std::string>()).exit_code, 1)
      << "a decided request cannot be decided again";

  Reply third = request({{"requested_limit", 10}, {"reason", "a third"}});
  ASSERT_EQ(third.status, 201);
  runAdmin("allowance deny " + third.body["id"].get<std::string>());
  Reply fourth = request({{"requested_limit", 10}, {"reason", "a fourth today"}});
  EXPECT_EQ(fourth.status, 429);
  EXPECT_EQ(fourth.body["code"], "RATE_LIMITED");
  EXPECT_GT(std::stoi(fourth.header("retry-after")), 23 * 3600);

  Reply listed = api.call("GET", path, bearer(account.test_key));
  ASSERT_EQ(listed.body["data"].size(), 3u);
  EXPECT_EQ(listed.body["data"][0]["id"], third.body["id"]) << "newest first";
  AdminRun staff_list = runAdmin("allowance list --account " + account.id);
  ASSERT_EQ(staff_list.exit_code, 0);
  ASSERT_EQ(staff_list.output["allowance_requests"].size(), 3u);
  EXPECT_EQ(staff_list.output["allowance_requests"][0]["id"], third.body["id"]);
  EXPECT_EQ(staff_list.output["allowance_requests"][0]["account_id"], account.id);
  EXPECT_EQ(runAdmin("allowance list --status APPROVED --account " + account.id)
                .output["allowance_requests"]
                .size(),
            1u);
  EXPECT_EQ(listed.body["data"][1]["status"], "APPROVED");
  EXPECT_EQ(listed.body["data"][1]["staff_note"], "Welcome");
  EXPECT_FALSE(listed.body["data"][1]["decided_at"].is_null());
}

TEST(TollFree, StaffSetTheVerificationAndUnverifiedNumbersCannotSend) {
  HttpTestClient api(apiUrl());
  TestAccount account = readyToBuy(api, 1000);
  nlohmann::json number = buyNumber(api, account, "888");
  EXPECT_EQ(number["number_type"], "toll_free");
  EXPECT_EQ(number["monthly_cost_cents"], 300);
  EXPECT_TRUE(number["region"].is_null());
  EXPECT_TRUE(number["toll_free_verification"].is_null());
  EXPECT_EQ(balanceOf(api, account), 1000 - 400);

  auto send = [&] {
    return api.call("POST", "/v1/messages", bearer(account.live_key),
                    {{"from", number["phone_number"]}, {"to", "+15142220123"}, {"body", "Hi"}});
  };
  EXPECT_EQ(send().body["details"]["reason"], "toll_free_verification_not_approved");
  AdminRun review = runAdmin("toll-free set " + number["phone_number"].get<std::string>() +
                             " --status IN_REVIEW");
  ASSERT_EQ(review.exit_code, 0);
  std::string application = review.output["phone_number"]["toll_free_verification"]["id"];
  EXPECT_TRUE(application.starts_with("tfv_"));
  runAdmin("toll-free set " + number["id"].get<std::string>() + " --status APPROVED");
  Reply read = api.call("GET", "/v1/phone-numbers/" + number["id"].get<std::string>(),
                        bearer(account.live_key));
  EXPECT_EQ(read.body["toll_free_verification"],
            nlohmann::json({{"id", application}, {"status", "APPROVED"}}));
  EXPECT_NE(send().body["details"]["reason"], "toll_free_verification_not_approved");

  AdminRun reopened = runAdmin("toll-free set " + number["id"].get<std::string>() +
                               " --status DRAFT --new-application");
  EXPECT_NE(reopened.output["phone_number"]["toll_free_verification"]["id"], application);
  EXPECT_EQ(runAdmin("toll-free set +15145550123 --status APPROVED").exit_code, 1);
}

TEST(RentBilling, SuspensionTopUpReactivationAndGraceExpiryEachRaiseOneEvent) {
  HttpTestClient api(apiUrl());
  TestAccount account = readyToBuy(api, 500);
  WebhookReceiver receiver;
  Reply hook =
      api.call("POST", "/v1/webhooks", bearer(account.live_key),
               {{"url", receiver.url()},
                {"events", {"phone_number.suspended", "phone_number.released", "message.queued"}}});
  ASSERT_EQ(hook.status, 201) << hook.raw_body;
  nlohmann::json kept = buyNumber(api, account, "506");
  nlohmann::json lost = buyNumber(api, account, "428");
  ASSERT_EQ(balanceOf(api, account), 0);

  // A month on, neither rent can be collected: both are suspended, and sends from them refused.
  rentRun(account, monthsAfter(kept, 1));
  EXPECT_EQ(statusOf(api, account, kept), "SUSPENDED");
  EXPECT_EQ(statusOf(api, account, lost), "SUSPENDED");
  Reply send = api.call("POST", "/v1/messages", bearer(account.live_key),
                        {{"from", kept["phone_number"]}, {"to", "+15142220123"}, {"body", "Hi"}});
  EXPECT_EQ(send.status, 409);
  EXPECT_EQ(send.body["code"], "PHONE_NUMBER_SUSPENDED");
  Reply doc = api.call("GET", "/v1/accounts/" + account.id, bearer(account.live_key));
  EXPECT_EQ(doc.body["account"]["low_balance"], true);
  EXPECT_EQ(doc.body["account"]["phone_numbers_used"], 2) << "suspended numbers still count";
  rentRun(account, monthsAfter(kept, 1));  // running the same pass again changes nothing

  // Money within the grace period pays what the older number owes; nothing is left for the other.
  AdminRun credit = runAdmin("account credit " + account.id + " --cents 150 --note 'Partial'");
  ASSERT_EQ(credit.exit_code, 0);
  EXPECT_EQ(credit.output["numbers_reactivated"], 1);
  EXPECT_EQ(credit.output["balance_cents"], 0);
  EXPECT_EQ(statusOf(api, account, kept), "ACTIVE");
  EXPECT_EQ(statusOf(api, account, lost), "SUSPENDED");

  // After the grace period the suspended number is released; the paid one stays.
  rentRun(account, monthsAfter(kept, 1, 9));
  EXPECT_EQ(statusOf(api, account, lost), "RELEASED");
  EXPECT_EQ(statusOf(api, account, kept), "ACTIVE");
  Reply listed = api.call("GET", "/v1/phone-numbers", bearer(account.live_key));
  ASSERT_EQ(listed.body["data"].size(), 1u);
  EXPECT_EQ(ledgerSum(api, account), balanceOf(api, account));

  auto deliveries = deliveriesBeforeMarker(api, account, receiver);
  ASSERT_EQ(deliveries.size(), 3u) << "two suspensions and one release, each once";
  std::multiset<std::string> seen;
  std::set<std::string> ids;
  for (const auto& delivery : deliveries) {
    auto event = nlohmann::json::parse(delivery.body);
    seen.insert(event["type"].get<std::string>() + " " +
                event["data"]["phone_number"].get<std::string>() + " " +
                event["data"]["reason"].get<std::string>());
    ids.insert(event["id"]);
    EXPECT_EQ(event["livemode"], true);
    EXPECT_EQ(delivery.headers.at("webhook-id"), event["id"]);
  }
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_EQ(seen, (std::multiset<std::string>{
                      "phone_number.suspended " + kept["phone_number"].get<std::string>() +
                          " insufficient_balance",
                      "phone_number.suspended " + lost["phone_number"].get<std::string>() +
                          " insufficient_balance",
                      "phone_number.released " + lost["phone_number"].get<std::string>() +
                          " suspended_grace_expired"}));
}

TEST(StaffCommands, ATopUpReactivatesAndStaffCreditAndRelease) {
  HttpTestClient api(apiUrl());
  TestAccount account = readyToBuy(api, 500);
  nlohmann::json number = buyNumber(api, account, "866");  // 400 of the 500
  rentRun(account, monthsAfter(number, 1));
  ASSERT_EQ(statusOf(api, account, number), "SUSPENDED");

  Reply top_up =
      api.call("POST", "/v1/accounts/" + account.id + "/top-ups", bearer(account.live_key),
               {{"amount_cents", 500}, {"payment_token", "tok_sandbox_ok"}});
  ASSERT_EQ(top_up.status, 201) << top_up.raw_body;
  EXPECT_EQ(top_up.body["balance_cents"], 100 + 500 - 300);
  EXPECT_EQ(statusOf(api, account, number), "ACTIVE");
  Reply ledger = api.call("GET", "/v1/accounts/" + account.id + "/transactions?limit=2",
                          bearer(account.live_key));
  EXPECT_EQ(ledger.body["data"][0]["kind"], "number_rent");
  EXPECT_EQ(ledger.body["data"][0]["amount_cents"], -300);
  EXPECT_EQ(ledger.body["data"][1]["kind"], "top_up");

  AdminRun credit =
      runAdmin("account credit " + account.id + " --cents 1000 --note 'Outage goodwill'");
  ASSERT_EQ(credit.exit_code, 0);
  EXPECT_EQ(credit.output["balance_cents"], 300 + 1000);
  EXPECT_EQ(credit.output["numbers_reactivated"], 0);
  EXPECT_EQ(runAdmin("account credit " + account.id + " --cents 0 --note x").exit_code, 1);
  EXPECT_EQ(runAdmin("account credit acc_nobody --cents 100 --note x").exit_code, 1);
  EXPECT_EQ(ledgerSum(api, account), balanceOf(api, account));

  AdminRun released = runAdmin("number release " + number["phone_number"].get<std::string>());
  ASSERT_EQ(released.exit_code, 0);
  EXPECT_EQ(released.output["phone_number"]["status"], "RELEASED");
  EXPECT_EQ(runAdmin("number release " + number["id"].get<std::string>()).exit_code, 1);
  AdminRun bad_date = runAdmin("rent run --as-of not-a-date");
  EXPECT_NE(bad_date.exit_code, 0);
  EXPECT_TRUE(bad_date.output.is_null()) << "nothing ran";
}
