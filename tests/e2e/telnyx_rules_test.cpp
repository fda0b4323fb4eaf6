// Rules Telnyx's document states in words its schema cannot check (tests/contract/telnyx,
// telnyx-messaging.yml), each followed by the carrier simulator and tested here, one test per
// sentence, quoted. docs/carrier.md's table lists them with the adapter code that relies on them.
#include <gtest/gtest.h>

#include <regex>

#include "adapters/http_carrier_client.h"
#include "tests/support/http_test_client.h"
#include "tests/support/numbers.h"
#include "tests/support/test_env.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

class TelnyxsWords : public ::testing::Test {
 protected:
  Reply carrier(const std::string& method, const std::string& path,
                const nlohmann::json& body = nullptr) {
    return sim.call(method, path, {{"Authorization", "Bearer sim-key"}}, body);
  }
  nlohmann::json listed(const std::string& filter) {
    return carrier("GET", "/v2/phone_numbers?filter%5Bphone_number%5D=" + filter).body["data"];
  }
  // A number of the simulator's stock, ordered now (and so listed) under `reference`.
  std::string ordered(const std::string& reference) {
    Reply offers = carrier("GET",
                           "/v2/available_phone_numbers?filter%5Bnational_destination_code%5D=819"
                           "&filter%5Blimit%5D=50");
    for (const auto& offered : offers.body["data"]) {
      std::string number = offered["phone_number"];
      if (!listed(number.substr(1)).empty()) continue;  // an earlier run held it
      Reply order = carrier("POST", "/v2/number_orders",
                            {{"phone_numbers", {{{"phone_number", number}}}},
                             {"messaging_profile_id", kSimulatorMessagingProfileId},
                             {"customer_reference", reference}});
      if (order.status == 200) return number;
    }
    ADD_FAILURE() << "no number of 819 left to order";
    return "";
  }

  HttpTestClient sim{simUrl()};
};

}  // namespace

// GET /v2/phone_numbers, filter[phone_number]: "Requires at least three digits."
TEST_F(TelnyxsWords, ThePhoneNumberFilterNeedsAtLeastThreeDigits) {
  std::string number = ordered("pur_rules_three");
  ASSERT_FALSE(number.empty());
  EXPECT_EQ(listed(number.substr(1)).size(), 1u);
  EXPECT_FALSE(listed(number.substr(number.size() - 3)).empty()) << "three digits match";
  EXPECT_TRUE(listed(number.substr(number.size() - 2)).empty()) << "two digits find nothing";
}

// GET /v2/phone_numbers, filter[phone_number]: "Non-numerical characters will result in no
// values being returned."
TEST_F(TelnyxsWords, NonNumericalCharactersInThePhoneNumberFilterReturnNothing) {
  std::string number = ordered("pur_rules_digits");
  ASSERT_FALSE(number.empty());
  EXPECT_TRUE(listed("%2B" + number.substr(1)).empty()) << "a '+' is not a digit";
  EXPECT_TRUE(listed(number.substr(1, 4) + "-" + number.substr(5)).empty());
}

// GET /v2/phone_numbers, sort: "If not given, results are sorted by created_at in descending
// order."
TEST_F(TelnyxsWords, NumbersAreListedNewestFirstWhenNoSortIsGiven) {
  std::string older = ordered("pur_rules_older");
  std::string newer = ordered("pur_rules_newer");
  nlohmann::json all = carrier("GET", "/v2/phone_numbers").body["data"];
  auto position = [&](const std::string& number) {
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i]["phone_number"] == number) return i;
    return all.size();
  };
  ASSERT_LT(position(newer), all.size());
  EXPECT_LT(position(newer), position(older));
}

// numbers_IntId, a phone number's id: "Identifies the resource.", example
// '1293384261075731499': a string of digits, not a UUID and not the number.
TEST_F(TelnyxsWords, APhoneNumbersIdIsAStringOfDigits) {
  std::string number = ordered("pur_rules_id");
  nlohmann::json record = listed(number.substr(1)).at(0);
  ASSERT_TRUE(record["id"].is_string());
  EXPECT_TRUE(std::regex_match(record["id"].get<std::string>(), std::regex("[0-9]{10,19}")))
      << record["id"];
}

// NumberOrder, customer_reference: "A customer reference string for customer look ups."
TEST_F(TelnyxsWords, AnOrderIsFoundByItsCustomerReference) {
  std::string reference = "pur_rules_" + randomSubscriber("819").substr(5);
  std::string number = ordered(reference);
  auto ordersUnder = [&](const std::string& ref) {
    return carrier("GET", "/v2/number_orders?filter%5Bcustomer_reference%5D=" + ref).body["data"];
  };
  nlohmann::json found = ordersUnder(reference);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]["customer_reference"], reference);
  EXPECT_EQ(found[0]["phone_numbers"][0]["phone_number"], number);
  EXPECT_TRUE(ordersUnder(reference + "x").empty()) << "another reference finds nothing";
}

// OutboundMessagePayload, wait_seconds: "Seconds the message is queued due to rate limiting
// before being sent to the carrier. [...] 0.0 = no queuing delay."
TEST_F(TelnyxsWords, WaitSecondsIsZeroWhenNothingIsQueued) {
  Reply sent = carrier("POST", "/v2/messages",
                       {{"from", "+18195550100"}, {"to", randomSubscriber("819")}, {"text", "x"}});
  ASSERT_EQ(sent.status, 200) << sent.raw_body;
  EXPECT_EQ(sent.body["data"]["wait_seconds"], 0.0);
}

// CreateMessageRequest, from: "Required if sending with a phone number, short code, or
// alphanumeric sender ID."
TEST_F(TelnyxsWords, ASendWithoutFromIsRefused) {
  Reply refused = carrier("POST", "/v2/messages", {{"to", randomSubscriber("819")}, {"text", "x"}});
  EXPECT_EQ(refused.status, 422);
  EXPECT_EQ(refused.body["errors"][0]["code"], "10015");
}

// AvailablePhoneNumber, best_effort: "Specifies whether the phone number is an exact match based
// on the search criteria or not." With filter[best_effort]=false, as the adapter asks, every
// number offered is in the area code searched.
TEST_F(TelnyxsWords, ASearchForExactMatchesOffersOnlyExactMatches) {
  nlohmann::json offered =
      carrier("GET",
              "/v2/available_phone_numbers?filter%5Bnational_destination_code%5D=819"
              "&filter%5Bbest_effort%5D=false&filter%5Blimit%5D=5")
          .body["data"];
  ASSERT_EQ(offered.size(), 5u);
  for (const auto& number : offered) {
    EXPECT_FALSE(number.value("best_effort", false)) << number;
    EXPECT_TRUE(number["phone_number"].get<std::string>().starts_with("+1819")) << number;
  }
}
