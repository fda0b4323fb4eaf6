// Phone numbers through the running stack, as a customer sees them: area codes, search,
// provisioning with its refusals and refunds, listing, release.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <regex>
#include <set>

#include "tests/support/numbers.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

void armSimFault(const nlohmann::json& fault) {
  HttpTestClient sim(simUrl());
  ASSERT_EQ(sim.call("POST", "/sim/faults", {}, fault).status, 201);
}

// What the carrier lists for us under this number: Telnyx's phone number records, found by
// filter[phone_number], which takes digits ("Non-numerical characters will result in no values
// being returned.", issue 50). Telnyx names each record by its own id and keeps a released one
// as `deleted`.
nlohmann::json carrierListing(const std::string& number) {
  HttpTestClient sim(simUrl());
  return sim
      .call("GET", "/v2/phone_numbers?filter%5Bphone_number%5D=" + number.substr(1),
            {{"Authorization", "Bearer sim-key"}})
      .body["data"];
}

// Whether the carrier holds (and bills) the number for us: a record of it is `active`.
bool carrierHolds(const std::string& number) {
  for (const auto& record : carrierListing(number))
    if (record["status"] == "active") return true;
  return false;
}

class PhoneNumbers : public ::testing::Test {
 protected:
  void TearDown() override { HttpTestClient(simUrl()).call("DELETE", "/sim/faults"); }
  HttpTestClient api{apiUrl()};
};

}  // namespace

TEST_F(PhoneNumbers, AreaCodesAreGroupedByProvinceWithTheTollFreePrefixes) {
  TestAccount account = signUp(api);
  Reply reply = api.call("GET", "/v1/phone-numbers/area-codes", bearer(account.test_key));
  ASSERT_EQ(reply.status, 200) << reply.raw_body;
  std::map<std::string, nlohmann::json> by_province;
  for (const auto& group : reply.body["data"]) {
    EXPECT_EQ(group["country"], "CA");
    by_province[group["province"]] = group["area_codes"];
  }
  EXPECT_EQ(by_province.size(), 14u) << "13 provinces and territories, and toll-free";
  EXPECT_EQ(by_province["Toll-free"], nlohmann::json({"833", "844", "855", "866", "877", "888"}));
  EXPECT_NE(std::find(by_province["Ontario"].begin(), by_province["Ontario"].end(), "942"),
            by_province["Ontario"].end());
  EXPECT_EQ(by_province["Yukon"], nlohmann::json({"867"}));
}

TEST_F(PhoneNumbers, SearchPricesLocalAndTollFreeNumbersAndIsStable) {
  TestAccount account = signUp(api);
  std::string path = "/v1/phone-numbers/search?area_codes=416,514,416,877&limit=6";
  Reply first = api.call("GET", path, bearer(account.test_key));
  ASSERT_EQ(first.status, 200) << first.raw_body;
  ASSERT_TRUE(first.body.is_array()) << "a bare array, not wrapped in data";
  ASSERT_EQ(first.body.size(), 6u);
  std::set<std::string> codes;
  for (const auto& result : first.body) {
    codes.insert(result["area_code"].get<std::string>());
    EXPECT_EQ(result["currency"], "CAD");
    EXPECT_EQ(result["country_code"], "CA");
    EXPECT_EQ(result["activation_fee_cents"], 100);
    EXPECT_EQ(result["upfront_cost_cents"], result["monthly_cost_cents"]);
    bool toll_free = result["area_code"] == "877";
    EXPECT_EQ(result["monthly_cost_cents"], toll_free ? 300 : 150);
    EXPECT_EQ(result["region"],
              toll_free ? nlohmann::json(nullptr)
                        : nlohmann::json(result["area_code"] == "416" ? "Ontario" : "Quebec"));
    EXPECT_EQ(result["capabilities"], nlohmann::json({"sms", "voice"}));
  }
  EXPECT_EQ(codes, (std::set<std::string>{"416", "514", "877"})) << "every code asked for";
  EXPECT_EQ(api.call("GET", path, bearer(account.test_key)).body, first.body)
      << "the carrier's inventory does not reshuffle between searches";
}

TEST_F(PhoneNumbers, SearchRefusesTooManyUnknownAndUnsoldCodes) {
  TestAccount account = signUp(api);
  auto search = [&](const std::string& query) {
    return api.call("GET", "/v1/phone-numbers/search?" + query, bearer(account.test_key));
  };
  std::string codes;
  for (const char* code :
       {"204", "226", "236", "249", "250", "263", "289", "306", "343", "354", "365", "367", "368",
        "403", "416", "418", "431", "437", "438", "450", "468", "474", "506", "514", "519"}) {
    codes += std::string(codes.empty() ? "" : ",") + code;
  }
  EXPECT_EQ(search("limit=1&area_codes=" + codes + ",416,204").status, 200)
      << "25 distinct codes; repeats count once";
  Reply too_many = search("area_codes=" + codes + ",548");
  EXPECT_EQ(too_many.status, 422);
  EXPECT_EQ(too_many.body["code"], "TOO_MANY_AREA_CODES");
  Reply unsold = search("area_codes=416,800,999");
  EXPECT_EQ(unsold.body["code"], "VALIDATION_ERROR");
  EXPECT_EQ(unsold.body["details"]["area_codes"], nlohmann::json({"800", "999"}));
  EXPECT_EQ(search("").body["details"][0]["field"], "area_codes");
  EXPECT_EQ(search("area_codes=416&limit=0").body["details"][0]["field"], "limit");
}

TEST_F(PhoneNumbers, SearchIsLimitedToThirtyAMinutePerAccount) {
  TestAccount account = signUp(api);
  // 30 at once, then one earned back every 2 s (domain/request_rate.h): how many the calls'
  // own time earned back depends on the machine, so it is measured, not assumed (a loaded box
  // took over 2 s for the 30 and was allowed a 31st).
  auto started = std::chrono::steady_clock::now();
  int allowed = 0;
  Reply limited;
  for (int i = 0; i < 60; ++i) {
    Reply reply = api.call("GET", "/v1/phone-numbers/search?area_codes=204&limit=1",
                           bearer(account.test_key));
    if (reply.status != 200) {
      limited = reply;
      break;
    }
    ++allowed;
  }
  auto earned_back =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started)
          .count() /
      2;
  EXPECT_GE(allowed, 30);
  EXPECT_LE(allowed, 30 + earned_back + 1);
  EXPECT_EQ(limited.status, 429);
  EXPECT_EQ(limited.body["code"], "RATE_LIMITED");
  EXPECT_GE(std::stoi(limited.header("retry-after")), 1);
  EXPECT_FALSE(limited.header("x-ratelimit-limit").empty());
  TestAccount other = signUp(api);
  EXPECT_EQ(
      api.call("GET", "/v1/phone-numbers/search?area_codes=204", bearer(other.test_key)).status,
      200)
      << "per account";
}

TEST_F(PhoneNumbers, ACarrierSearchFailingTwiceIsA502) {
  TestAccount account = signUp(api);
  armSimFault({{"kind", "search"}, {"count", 2}});  // the search and its one retry
  Reply failed =
      api.call("GET", "/v1/phone-numbers/search?area_codes=613", bearer(account.test_key));
  EXPECT_EQ(failed.status, 502);
  EXPECT_EQ(failed.body["code"], "NUMBER_SEARCH_FAILED");
}

// Issue 50: Telnyx marks its number search heavy; one 429 among many area codes failed the whole
// search, and best-effort numbers (outside the area code asked for) were offered as if they
// matched. Toll-free codes are searched as phone_number_type toll_free.
TEST_F(PhoneNumbers, AThrottledAreaCodeIsAskedAgainAndOnlyNumbersOfTheCodesAskedForAreOffered) {
  TestAccount account = signUp(api);
  armSimFault({{"kind", "search"}, {"mode", "throttle"}, {"count", 1}});
  armSimFault({{"kind", "search"}, {"mode", "best_effort"}, {"count", 6}});
  Reply found =
      api.call("GET", "/v1/phone-numbers/search?area_codes=416,514,819,905,877,604&limit=12",
               bearer(account.test_key));
  ASSERT_EQ(found.status, 200) << found.raw_body;
  std::set<std::string> codes;
  for (const auto& result : found.body) {
    std::string code = result["area_code"];
    codes.insert(code);
    EXPECT_TRUE(result["phone_number"].get<std::string>().starts_with("+1" + code))
        << result.dump();
  }
  EXPECT_EQ(codes, (std::set<std::string>{"416", "514", "819", "905", "877", "604"}))
      << "every code asked for, the throttled one too";
  EXPECT_EQ(found.body.size(), 12u);
}

TEST_F(PhoneNumbers, ProvisioningChargesOncesAndTheNumberIsListedAndReadable) {
  TestAccount account = readyToBuy(api, 1000);
  nlohmann::json number = buyNumber(api, account, "604");
  EXPECT_TRUE(number["id"].get<std::string>().starts_with("pn_"));
  EXPECT_EQ(number["status"], "ACTIVE");
  EXPECT_EQ(number["area_code"], "604");
  EXPECT_EQ(number["region"], "British Columbia");
  EXPECT_EQ(number["monthly_cost_cents"], 150);
  EXPECT_EQ(number["number_type"], "local");
  EXPECT_TRUE(number["released_at"].is_null());
  EXPECT_TRUE(number["toll_free_verification"].is_null());
  EXPECT_EQ(balanceOf(api, account), 1000 - 250);
  EXPECT_EQ(ledgerSum(api, account), 750);

  Reply listed = api.call("GET", "/v1/phone-numbers", bearer(account.test_key));
  ASSERT_EQ(listed.body["data"].size(), 1u);
  EXPECT_EQ(listed.body["data"][0], number);
  EXPECT_EQ(api.call("GET", "/v1/phone-numbers/" + number["id"].get<std::string>(),
                     bearer(account.live_key))
                .body,
            number);
  Reply doc = api.call("GET", "/v1/accounts/" + account.id, bearer(account.live_key));
  EXPECT_EQ(doc.body["account"]["monthly_rent_cents"], 150);
  EXPECT_EQ(doc.body["account"]["phone_numbers_used"], 1);
  EXPECT_EQ(doc.body["account"]["phone_number_limit"], 5);
  EXPECT_EQ(doc.body["account"]["low_balance"], false);
  EXPECT_EQ(doc.body["account"]["spent_this_month_cents"], 250) << "the first rent and the fee";
  EXPECT_TRUE(doc.body["account"]["sending_paused_until"].is_null());
  EXPECT_TRUE(carrierHolds(number["phone_number"])) << "the carrier holds it for us";
  // Found by its digits, under Telnyx's numeric id (issue 50); an earlier run on the same
  // stack may have left a deleted record of it beside the active one.
  for (const auto& record : carrierListing(number["phone_number"])) {
    if (record["status"] != "active") continue;
    EXPECT_TRUE(std::regex_match(record["id"].get<std::string>(), std::regex("[0-9]{15,}")))
        << record["id"];
  }
}

TEST_F(PhoneNumbers, ProvisioningRefusalsChargeAndOrderNothing) {
  TestAccount account = readyToBuy(api, 500);
  auto provision = [&](const std::string& key, const nlohmann::json& body) {
    return api.call("POST", "/v1/phone-numbers", bearer(key), body);
  };
  std::string number = availableNumber(api, account, "306");
  EXPECT_EQ(provision(account.test_key, {{"phone_number", number}}).body["code"],
            "LIVE_KEY_REQUIRED");
  EXPECT_EQ(provision(account.live_key, {{"phone_number", "+12125550123"}}).body["code"],
            "NON_CANADIAN_NUMBER");
  Reply eight_hundred = provision(account.live_key, {{"phone_number", "+18005550123"}});
  EXPECT_EQ(eight_hundred.status, 501);
  EXPECT_EQ(eight_hundred.body["code"], "TOLLFREE_800_COMING_SOON");
  EXPECT_EQ(provision(account.live_key, {{"phone_number", "613-555-0123"}}).body["code"],
            "VALIDATION_ERROR");
  EXPECT_EQ(provision(account.live_key, nlohmann::json::object()).body["details"][0]["field"],
            "phone_number");

  TestAccount unverified = signUpAndFund(api, 5000);
  Reply not_verified = provision(unverified.live_key, {{"phone_number", number}});
  EXPECT_EQ(not_verified.status, 403);
  EXPECT_EQ(not_verified.body["code"], "ACCOUNT_NOT_VERIFIED");

  buyNumber(api, account, "306");  // 500 - 250 = 250 left: a toll-free number costs 400
  std::string toll_free = availableNumber(api, account, "855");
  Reply poor = provision(account.live_key, {{"phone_number", toll_free}});
  EXPECT_EQ(poor.status, 402);
  EXPECT_EQ(poor.body["code"], "INSUFFICIENT_BALANCE");
  EXPECT_EQ(balanceOf(api, account), 250);
  EXPECT_TRUE(carrierListing(toll_free).empty()) << "nothing was ordered";
  EXPECT_EQ(ledgerSum(api, account), 250);
}

TEST_F(PhoneNumbers, TheLimitAndNumbersAlreadyHeldAreRefused) {
  TestAccount account = readyToBuy(api, 5000);
  nlohmann::json held;
  for (int i = 0; i < 5; ++i) held = buyNumber(api, account, "204");
  Reply over = api.call("POST", "/v1/phone-numbers", bearer(account.live_key),
                        {{"phone_number", availableNumber(api, account, "204")}});
  EXPECT_EQ(over.status, 403);
  EXPECT_EQ(over.body["code"], "NUMBER_LIMIT_REACHED");
  EXPECT_EQ(over.body["details"], nlohmann::json({{"limit", 5}, {"used", 5}}));
  TestAccount other = readyToBuy(api, 5000);
  Reply taken = api.call("POST", "/v1/phone-numbers", bearer(other.live_key),
                         {{"phone_number", held["phone_number"]}});
  EXPECT_EQ(taken.status, 409);
  EXPECT_EQ(taken.body["code"], "CONFLICT");
  EXPECT_EQ(balanceOf(api, other), 5000);
}

TEST_F(PhoneNumbers, ConcurrentPurchasesNeverChargeTwice) {
  TestAccount account = readyToBuy(api, 5000);
  Reply found =
      api.call("GET", "/v1/phone-numbers/search?area_codes=902&limit=5", bearer(account.live_key));
  ASSERT_EQ(found.body.size(), 5u);
  std::vector<std::future<Reply>> racers;
  for (int round = 0; round < 2; ++round) {  // each number asked for twice, all at once
    for (const auto& result : found.body) {
      std::string number = result["phone_number"];
      racers.push_back(std::async(std::launch::async, [&account, number] {
        HttpTestClient client(apiUrl());
        return client.call("POST", "/v1/phone-numbers", bearer(account.live_key),
                           {{"phone_number", number}});
      }));
    }
  }
  int created = 0;
  for (auto& racer : racers) {
    Reply reply = racer.get();
    if (reply.status == 201) {
      ++created;
    } else {
      // Ten at once also meet the account's cap on slow requests in flight (slow_lane.h).
      bool capped = reply.body["code"] == "RATE_LIMITED" &&
                    reply.body["details"]["reason"] == "too_many_slow_requests";
      EXPECT_TRUE(reply.body["code"] == "PURCHASE_IN_PROGRESS" ||
                  reply.body["code"] == "CONFLICT" || capped)
          << reply.raw_body;
    }
  }
  EXPECT_GE(created, 1);
  Reply listed = api.call("GET", "/v1/phone-numbers", bearer(account.live_key));
  EXPECT_EQ(listed.body["data"].size(), static_cast<size_t>(created));
  EXPECT_EQ(balanceOf(api, account), 5000 - 250 * created);
  EXPECT_EQ(ledgerSum(api, account), balanceOf(api, account));
}

TEST_F(PhoneNumbers, APendingCarrierOrderKeepsTheChargeAndThePurchaseInFlight) {
  // Telnyx may take an order and settle it later; until then the number is neither the
  // account's nor refunded, and the account's next purchase waits for it.
  TestAccount account = readyToBuy(api, 1000);
  std::string wanted = availableNumber(api, account, "709");
  armSimFault({{"kind", "order"}, {"mode", "pending"}, {"settle", "pending"}});
  Reply pending =
      api.call("POST", "/v1/phone-numbers", bearer(account.live_key), {{"phone_number", wanted}});
  EXPECT_EQ(pending.status, 502);
  EXPECT_EQ(pending.body["code"], "PROVISIONING_FAILED");
  EXPECT_EQ(pending.body["details"]["settlement"], "pending");
  EXPECT_EQ(pending.body["details"]["reason"], "order_pending");
  EXPECT_TRUE(pending.body["details"]["purchase_id"].is_string());
  EXPECT_EQ(balanceOf(api, account), 750) << "charged while the carrier's order is open";
  EXPECT_EQ(ledgerSum(api, account), 750);
  EXPECT_TRUE(api.call("GET", "/v1/phone-numbers", bearer(account.live_key)).body["data"].empty());
  EXPECT_FALSE(carrierHolds(wanted)) << "not the carrier's either, yet";
  EXPECT_EQ(carrierListing(wanted).back()["status"], "purchase-pending");
  std::string other = availableNumber(api, account, "709");
  Reply next =
      api.call("POST", "/v1/phone-numbers", bearer(account.live_key), {{"phone_number", other}});
  EXPECT_EQ(next.status, 409);
  EXPECT_EQ(next.body["code"], "PURCHASE_IN_PROGRESS");
}

TEST_F(PhoneNumbers, APendingOrderThatSucceedsMakesTheNumberAndOneThatFailsIsRefunded) {
  // The billing pass settles them (staff may run it at once, as here; the worker's runs every
  // minute for purchases pending longer than two).
  TestAccount account = readyToBuy(api, 1000);
  auto settle = [&] {
    AdminRun run = runAdmin("rent run --account " + account.id + " --settle-after 0");
    EXPECT_EQ(run.exit_code, 0) << run.output;
    return run.output;
  };
  std::string wanted = availableNumber(api, account, "782");
  armSimFault({{"kind", "order"}, {"mode", "pending"}, {"settle", "success"}});
  Reply pending =
      api.call("POST", "/v1/phone-numbers", bearer(account.live_key), {{"phone_number", wanted}});
  ASSERT_EQ(pending.body["details"]["reason"], "order_pending") << pending.raw_body;
  EXPECT_EQ(settle()["purchases_settled"], 1);
  Reply listed = api.call("GET", "/v1/phone-numbers", bearer(account.live_key));
  ASSERT_EQ(listed.body["data"].size(), 1u);
  EXPECT_EQ(listed.body["data"][0]["phone_number"], wanted);
  EXPECT_EQ(balanceOf(api, account), 750) << "charged once";
  EXPECT_TRUE(carrierHolds(wanted));
  std::string path = "/v1/phone-numbers/" + listed.body["data"][0]["id"].get<std::string>();
  EXPECT_EQ(api.call("DELETE", path, bearer(account.live_key)).status, 204);
  EXPECT_FALSE(carrierHolds(wanted)) << "released by the carrier's id for it";

  std::string refused = availableNumber(api, account, "782");
  armSimFault({{"kind", "order"}, {"mode", "pending"}, {"settle", "failure"}});
  pending =
      api.call("POST", "/v1/phone-numbers", bearer(account.live_key), {{"phone_number", refused}});
  ASSERT_EQ(pending.body["details"]["reason"], "order_pending") << pending.raw_body;
  EXPECT_EQ(balanceOf(api, account), 500);
  EXPECT_EQ(settle()["purchases_settled"], 1);
  EXPECT_EQ(balanceOf(api, account), 750) << "the carrier's order failed: refunded";
  EXPECT_EQ(ledgerSum(api, account), 750);
  EXPECT_TRUE(api.call("GET", "/v1/phone-numbers", bearer(account.live_key)).body["data"].empty());
}

TEST_F(PhoneNumbers, AFailedCarrierOrderIsRefunded) {
  TestAccount account = readyToBuy(api, 1000);
  std::string number = availableNumber(api, account, "709");
  armSimFault({{"kind", "order"}, {"count", 1}});
  Reply failed =
      api.call("POST", "/v1/phone-numbers", bearer(account.live_key), {{"phone_number", number}});
  EXPECT_EQ(failed.status, 502);
  EXPECT_EQ(failed.body["code"], "PROVISIONING_FAILED");
  EXPECT_EQ(failed.body["details"]["refunded_cents"], 250);
  EXPECT_EQ(balanceOf(api, account), 1000);
  EXPECT_EQ(ledgerSum(api, account), 1000);
  EXPECT_TRUE(api.call("GET", "/v1/phone-numbers", bearer(account.live_key)).body["data"].empty());
  EXPECT_EQ(
      api.call("POST", "/v1/phone-numbers", bearer(account.live_key), {{"phone_number", number}})
          .status,
      201)
      << "the same number can be bought once the carrier recovers";
}

// Issue 50: a release the carrier neither confirmed nor refused is not recorded as done. The
// number stays RELEASING (no rent), staff see it, and asking again settles it.
TEST_F(PhoneNumbers, AReleaseWhoseOutcomeIsUnknownStaysReleasingAndStaffSeeIt) {
  TestAccount account = readyToBuy(api, 1000);
  nlohmann::json number = buyNumber(api, account, "807");
  std::string id = number["id"];
  std::string path = "/v1/phone-numbers/" + id;
  armSimFault({{"kind", "release"}, {"count", 1}});
  armSimFault({{"kind", "listing"}, {"count", 1}});
  Reply unknown = api.call("DELETE", path, bearer(account.live_key));
  EXPECT_EQ(unknown.status, 502);
  EXPECT_EQ(unknown.body["code"], "RELEASE_FAILED");
  EXPECT_EQ(unknown.body["details"]["status"], "RELEASING") << unknown.raw_body;
  EXPECT_EQ(unknown.body["details"]["retrying"], true);
  EXPECT_EQ(api.call("GET", path, bearer(account.live_key)).body["status"], "RELEASING");
  EXPECT_TRUE(carrierHolds(number["phone_number"])) << "the carrier still holds it";

  AdminRun releasing = runAdmin("number releasing");
  ASSERT_EQ(releasing.exit_code, 0);
  auto listed =
      std::find_if(releasing.lines.begin(), releasing.lines.end(),
                   [&](const nlohmann::json& line) { return line.value("id", "") == id; });
  ASSERT_NE(listed, releasing.lines.end()) << "staff see the release in doubt";
  EXPECT_EQ((*listed)["release_reason"], "customer_released");
  EXPECT_TRUE((*listed)["carrier_number_id"].is_string()) << "the id to look for at the carrier";

  EXPECT_EQ(api.call("DELETE", path, bearer(account.live_key)).status, 204);
  EXPECT_FALSE(carrierHolds(number["phone_number"]));
  releasing = runAdmin("number releasing");
  EXPECT_TRUE(std::none_of(releasing.lines.begin(), releasing.lines.end(),
                           [&](const nlohmann::json& line) { return line.value("id", "") == id; }));
}

TEST_F(PhoneNumbers, ReleaseAnswers204ThenNotFoundAndARefusalChangesNothing) {
  TestAccount account = readyToBuy(api, 1000);
  nlohmann::json number = buyNumber(api, account, "807");
  std::string path = "/v1/phone-numbers/" + number["id"].get<std::string>();
  EXPECT_EQ(api.call("DELETE", path, bearer(account.test_key)).body["code"], "LIVE_KEY_REQUIRED");
  TestAccount stranger = signUpAndFund(api);
  EXPECT_EQ(api.call("DELETE", path, bearer(stranger.live_key)).status, 403);

  armSimFault({{"kind", "release"}, {"count", 1}});
  Reply refused = api.call("DELETE", path, bearer(account.live_key));
  EXPECT_EQ(refused.status, 502);
  EXPECT_EQ(refused.body["code"], "RELEASE_FAILED");
  EXPECT_EQ(api.call("GET", path, bearer(account.live_key)).body["status"], "ACTIVE");
  // A 404 from the carrier while it still lists the number is checked, not believed.
  armSimFault({{"kind", "release"}, {"mode", "not_found"}});
  Reply stale = api.call("DELETE", path, bearer(account.live_key));
  EXPECT_EQ(stale.status, 502);
  EXPECT_EQ(stale.body["code"], "RELEASE_FAILED");
  EXPECT_EQ(api.call("GET", path, bearer(account.live_key)).body["status"], "ACTIVE");
  EXPECT_TRUE(carrierHolds(number["phone_number"]));

  EXPECT_EQ(api.call("DELETE", path, bearer(account.live_key)).status, 204);
  EXPECT_FALSE(carrierHolds(number["phone_number"])) << "released at the carrier";
  EXPECT_EQ(api.call("DELETE", path, bearer(account.live_key)).status, 404);
  Reply released = api.call("GET", path, bearer(account.live_key));
  EXPECT_EQ(released.body["status"], "RELEASED");
  EXPECT_FALSE(released.body["released_at"].is_null());
  EXPECT_TRUE(api.call("GET", "/v1/phone-numbers", bearer(account.live_key)).body["data"].empty())
      << "released numbers leave the list";
  EXPECT_EQ(balanceOf(api, account), 750) << "the activation fee and rent are not refunded";
  EXPECT_EQ(api.call("GET", "/v1/phone-numbers/pn_doesnotexist", bearer(account.live_key)).status,
            404);
}
