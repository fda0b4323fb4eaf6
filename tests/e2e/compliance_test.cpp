// CASL records through the API: consents with every validation rule, the consent check,
// revocation, opt-outs, and TEST records kept apart from LIVE ones.
#include <gtest/gtest.h>

#include "tests/support/eventually.h"
#include "tests/support/numbers.h"
#include "tests/support/test_env.h"

using namespace smsgw::testing;

namespace {

class Compliance : public ::testing::Test {
 protected:
  Reply consent(const std::string& key, const nlohmann::json& body) {
    return api.call("POST", "/v1/compliance/consents", bearer(key), body);
  }
  Reply check(const std::string& key, const std::string& query) {
    return api.call("GET", "/v1/compliance/consents/check?" + query, bearer(key));
  }
  static std::string subscriber() { return randomSubscriber("514"); }

  HttpTestClient api{apiUrl()};
};

}  // namespace

TEST_F(Compliance, ExpressConsentIsRecordedAndAllowsSends) {
  TestAccount account = signUp(api);
  std::string phone = subscriber();
  Reply created = consent(account.test_key, {{"phone_number", phone},
                                             {"consent_type", "express"},
                                             {"source_description", "Web form, checkbox"},
                                             {"source_ip", "203.0.113.7"},
                                             {"source_url", "https://shop.example.ca/signup"}});
  ASSERT_EQ(created.status, 201) << created.raw_body;
  EXPECT_EQ(created.body["status"], "ACTIVE");
  EXPECT_EQ(created.body["phone_number"], phone);
  EXPECT_TRUE(created.body["email_address"].is_null());
  EXPECT_TRUE(created.body["expires_at"].is_null()) << "express consent never expires";

  Reply allowed = check(account.test_key, "phone_number=" + encodedNumber(phone));
  ASSERT_EQ(allowed.status, 200) << allowed.raw_body;
  EXPECT_EQ(allowed.body["allowed"], true);
  EXPECT_EQ(allowed.body["consentType"], "EXPRESS");
  EXPECT_FALSE(allowed.body.contains("reason"));

  Reply listed = api.call("GET", "/v1/compliance/consents?phone_number=" + encodedNumber(phone),
                          bearer(account.test_key));
  ASSERT_EQ(listed.body["data"].size(), 1u);
  const auto& record = listed.body["data"][0];
  EXPECT_EQ(record["accountId"], account.id);
  EXPECT_EQ(record["channel"], "SMS");
  EXPECT_EQ(record["consentType"], "EXPRESS");
  EXPECT_EQ(record["sourceIp"], "203.0.113.7");
  EXPECT_TRUE(record["revokedAt"].is_null());
  EXPECT_FALSE(listed.body.contains("total")) << "consents list has no total";
}

TEST_F(Compliance, ImpliedConsentLastsTwoYearsFromTheLastTransaction) {
  TestAccount account = signUp(api);
  Reply created = consent(account.test_key, {{"phone_number", subscriber()},
                                             {"consent_type", "implied"},
                                             {"relationship_type", "purchase"},
                                             {"last_transaction_date", "2026-03-10"}});
  ASSERT_EQ(created.status, 201) << created.raw_body;
  EXPECT_EQ(created.body["expires_at"], "2028-03-10T00:00:00.000Z");
  Reply explicit_expiry = consent(account.test_key, {{"phone_number", subscriber()},
                                                     {"consent_type", "implied"},
                                                     {"relationship_type", "inquiry"},
                                                     {"expires_at", "2027-06-30"}});
  EXPECT_EQ(explicit_expiry.body["expires_at"], "2027-06-30T00:00:00.000Z");
}

TEST_F(Compliance, AnImpliedConsentAlreadyLapsedIsAHistoricRecordTheCheckCallsExpired) {
  TestAccount account = signUp(api);
  std::string phone = subscriber();
  Reply lapsed = consent(account.test_key, {{"phone_number", phone},
                                            {"consent_type", "implied"},
                                            {"relationship_type", "purchase"},
                                            {"last_transaction_date", "2020-01-01"}});
  ASSERT_EQ(lapsed.status, 201) << lapsed.raw_body;
  EXPECT_EQ(lapsed.body["expires_at"], "2022-01-01T00:00:00.000Z");
  Reply given = consent(account.test_key, {{"phone_number", subscriber()},
                                           {"consent_type", "implied"},
                                           {"relationship_type", "inquiry"},
                                           {"expires_at", "2025-06-30"}});
  ASSERT_EQ(given.status, 201) << given.raw_body;
  EXPECT_EQ(given.body["expires_at"], "2025-06-30T00:00:00.000Z");

  Reply checked = check(account.test_key, "phone_number=" + encodedNumber(phone));
  EXPECT_EQ(checked.body["allowed"], false);
  EXPECT_EQ(checked.body["reason"], "CONSENT_EXPIRED");
  Reply listed = api.call("GET", "/v1/compliance/consents?phone_number=" + encodedNumber(phone),
                          bearer(account.test_key));
  ASSERT_EQ(listed.body["data"].size(), 1u);
  EXPECT_EQ(listed.body["data"][0]["status"], "EXPIRED") << "the check marked it";
  Reply refused = api.call("POST", "/v1/messages", bearer(account.test_key),
                           {{"from", "+14165550100"}, {"to", phone}, {"body", "Hello"}});
  EXPECT_EQ(refused.status, 451);
  EXPECT_EQ(refused.body["code"], "CONSENT_EXPIRED");
}

TEST_F(Compliance, EveryConsentRuleHasItsError) {
  TestAccount account = signUp(api);
  auto field_of = [&](const nlohmann::json& body) {
    Reply reply = consent(account.test_key, body);
    EXPECT_EQ(reply.status, 422) << reply.raw_body;
    return reply.body["code"].get<std::string>() + ":" +
           (reply.body["details"].is_array() ? reply.body["details"][0]["field"].get<std::string>()
                                             : "");
  };
  std::string phone = subscriber();
  EXPECT_EQ(field_of({{"consent_type", "express"}, {"source_description", "x"}}),
            "VALIDATION_ERROR:phone_number")
      << "neither phone_number nor email_address";
  EXPECT_EQ(field_of({{"phone_number", phone},
                      {"email_address", "a@b.ca"},
                      {"consent_type", "express"},
                      {"source_description", "x"}}),
            "VALIDATION_ERROR:phone_number")
      << "both";
  EXPECT_EQ(field_of({{"phone_number", phone}, {"consent_type", "express"}}),
            "VALIDATION_ERROR:source_description");
  EXPECT_EQ(field_of({{"phone_number", phone},
                      {"consent_type", "express"},
                      {"source_description", "x"},
                      {"expires_at", "2030-01-01"}}),
            "VALIDATION_ERROR:expires_at");
  EXPECT_EQ(field_of({{"phone_number", phone}, {"consent_type", "implied"}}),
            "VALIDATION_ERROR:relationship_type");
  EXPECT_EQ(
      field_of({{"phone_number", phone}, {"consent_type", "EXPRESS"}, {"source_description", "x"}}),
      "VALIDATION_ERROR:consent_type")
      << "lowercase only";
  EXPECT_EQ(field_of({{"phone_number", phone},
                      {"consent_type", "implied"},
                      {"relationship_type", "purchase"},
                      {"expires_at", "soon"}}),
            "VALIDATION_ERROR:expires_at");
  EXPECT_EQ(field_of({{"phone_number", "514-555-0123"},
                      {"consent_type", "express"},
                      {"source_description", "x"}}),
            "INVALID_PHONE_NUMBER:phone_number");
  EXPECT_EQ(field_of({{"email_address", "not an address"}, {"consent_type", "express"}}),
            "EMAIL_INVALID_ADDRESS:email_address");
  Reply email = consent(account.test_key, {{"email_address", "client@example.ca"},
                                           {"consent_type", "express"},
                                           {"source_description", "x"}});
  EXPECT_EQ(email.status, 501);
  EXPECT_EQ(email.body["code"], "EMAIL_COMING_SOON");
  EXPECT_TRUE(
      api.call("GET", "/v1/compliance/consents", bearer(account.test_key)).body["data"].empty())
      << "no refusal recorded anything";
}

TEST_F(Compliance, TheCheckSaysWhyASendWouldBeRefused) {
  TestAccount account = signUp(api);
  std::string phone = subscriber();
  Reply none = check(account.test_key, "phone_number=" + encodedNumber(phone));
  EXPECT_EQ(none.body["allowed"], false);
  EXPECT_EQ(none.body["reason"], "NO_CONSENT");
  EXPECT_FALSE(none.body.contains("consentType"));
  EXPECT_EQ(check(account.test_key, "phone_number=nope").body["code"], "INVALID_PHONE_NUMBER");
  EXPECT_EQ(check(account.test_key, "").body["code"], "VALIDATION_ERROR");
  EXPECT_EQ(check(account.test_key, "email_address=a@example.ca").status, 501);
  EXPECT_EQ(check(account.test_key, "email_address=nope").body["code"], "EMAIL_INVALID_ADDRESS");
}

TEST_F(Compliance, RevokingEndsConsentAndASecondRevokeIsNotFound) {
  TestAccount account = signUp(api);
  std::string phone = subscriber();
  for (const char* type : {"express", "implied"}) {
    ASSERT_EQ(consent(account.test_key, {{"phone_number", phone},
                                         {"consent_type", type},
                                         {"source_description", "in store"},
                                         {"relationship_type", "purchase"}})
                  .status,
              201);
  }
  std::string path = "/v1/compliance/consents/" + encodedNumber(phone);
  EXPECT_EQ(api.call("DELETE", path, bearer(account.test_key)).status, 204);
  EXPECT_EQ(api.call("DELETE", path, bearer(account.test_key)).status, 404);
  EXPECT_EQ(check(account.test_key, "phone_number=" + encodedNumber(phone)).body["reason"],
            "NO_CONSENT");
  Reply revoked =
      api.call("GET", "/v1/compliance/consents?status=revoked&phone_number=" + encodedNumber(phone),
               bearer(account.test_key));
  ASSERT_EQ(revoked.body["data"].size(), 2u) << "every active consent of the number";
  EXPECT_FALSE(revoked.body["data"][0]["revokedAt"].is_null());
  EXPECT_EQ(api.call("DELETE", "/v1/compliance/consents/not-a-number", bearer(account.test_key))
                .body["code"],
            "INVALID_PHONE_NUMBER");
  EXPECT_EQ(
      api.call("DELETE", "/v1/compliance/consents/email/a%40example.ca", bearer(account.test_key))
          .status,
      501);
}

TEST_F(Compliance, AnOptOutRefusesEvenWithConsent) {
  TestAccount account = signUp(api);
  std::string phone = subscriber();
  consent(account.test_key,
          {{"phone_number", phone}, {"consent_type", "express"}, {"source_description", "form"}});
  Reply opted_out = api.call("POST", "/v1/compliance/opt-outs", bearer(account.test_key),
                             {{"phone_number", phone}, {"from_number", "+14165550100"}});
  ASSERT_EQ(opted_out.status, 201) << opted_out.raw_body;
  EXPECT_EQ(opted_out.body, nlohmann::json({{"status", "opted_out"}}));
  EXPECT_EQ(api.call("POST", "/v1/compliance/opt-outs", bearer(account.test_key),
                     {{"phone_number", phone}, {"from_number", "+14165550100"}})
                .status,
            201)
      << "recording it again is harmless";
  EXPECT_EQ(check(account.test_key, "phone_number=" + encodedNumber(phone)).body["reason"],
            "OPT_OUT");
  EXPECT_EQ(check(account.test_key,
                  "phone_number=" + encodedNumber(phone) + "&from_number=%2B14165550199")
                .body["allowed"],
            true)
      << "the opt-out applies to the number it was given for";

  Reply listed = api.call("GET", "/v1/compliance/opt-outs?phone_number=" + encodedNumber(phone),
                          bearer(account.test_key));
  ASSERT_EQ(listed.body["data"].size(), 1u);
  EXPECT_EQ(listed.body["data"][0]["fromNumber"], "+14165550100");
  EXPECT_TRUE(listed.body["data"][0]["keywordUsed"].is_null()) << "recorded through the API";
  EXPECT_FALSE(listed.body["data"][0]["optedOutAt"].is_null());
  // Issue 34, item 8: a client that leaves the '+' of a number unencoded (form encoding reads
  // it as a space) finds the same records.
  EXPECT_EQ(
      api.call("GET", "/v1/compliance/opt-outs?phone_number=" + phone + "&from_number=+14165550100",
               bearer(account.test_key))
          .body["data"]
          .size(),
      1u);
  EXPECT_EQ(check(account.test_key, "phone_number=" + phone).body["reason"], "OPT_OUT");
}

TEST_F(Compliance, ALiveOptOutNeedsOneOfTheAccountsNumbers) {
  TestAccount account = readyToBuy(api, 1000);
  nlohmann::json number = buyNumber(api, account, "418");
  Reply not_ours = api.call("POST", "/v1/compliance/opt-outs", bearer(account.live_key),
                            {{"phone_number", subscriber()}, {"from_number", "+14165550100"}});
  EXPECT_EQ(not_ours.status, 403);
  EXPECT_EQ(not_ours.body["code"], "PHONE_NUMBER_NOT_OWNED");
  EXPECT_EQ(api.call("POST", "/v1/compliance/opt-outs", bearer(account.live_key),
                     {{"phone_number", subscriber()}, {"from_number", number["phone_number"]}})
                .status,
            201);
  EXPECT_EQ(api.call("POST", "/v1/compliance/opt-outs", bearer(account.live_key),
                     {{"phone_number", "bad"}, {"from_number", number["phone_number"]}})
                .body["code"],
            "INVALID_PHONE_NUMBER");
  EXPECT_EQ(api.call("POST", "/v1/compliance/opt-outs", bearer(account.live_key),
                     {{"phone_number", subscriber()}})
                .body["details"][0]["field"],
            "from_number");
}

TEST_F(Compliance, TestRecordsNeverCountForLiveSends) {
  TestAccount account = signUpAndFund(api);
  std::string phone = subscriber();
  consent(account.test_key,
          {{"phone_number", phone}, {"consent_type", "express"}, {"source_description", "form"}});
  EXPECT_EQ(check(account.test_key, "phone_number=" + encodedNumber(phone)).body["allowed"], true);
  EXPECT_EQ(check(account.live_key, "phone_number=" + encodedNumber(phone)).body["reason"],
            "NO_CONSENT");
  EXPECT_TRUE(
      api.call("GET", "/v1/compliance/consents", bearer(account.live_key)).body["data"].empty());
}

TEST_F(Compliance, ABatchCountsEveryRowExactlyOnceAndRecordsTheGoodOnes) {
  TestAccount account = signUp(api);
  std::string opted_out = subscriber(), already = subscriber(), a = subscriber(), b = subscriber(),
              c = subscriber();
  api.call("POST", "/v1/compliance/opt-outs", bearer(account.test_key),
           {{"phone_number", opted_out}, {"from_number", "+14165550100"}});
  consent(account.test_key,
          {{"phone_number", already}, {"consent_type", "express"}, {"source_description", "form"}});
  Reply batch = api.call(
      "POST", "/v1/compliance/consent-batches", bearer(account.test_key),
      {{"attested", true},
       {"file_name", "spring-list.json"},
       {"defaults", {{"consent_type", "express"}, {"source_description", "Spring contest entry"}}},
       {"rows",
        {{{"phone_number", a}},
         {{"phone_number", b},
          {"consent_type", "implied"},
          {"relationship_type", "purchase"},
          {"last_transaction_date", "2026-10-01"}},
         {{"phone_number", "not a number"}},
         {{"phone_number", a}},
         {{"phone_number", opted_out}},
         {{"phone_number", already}},
         {{"phone_number", c}, {"consent_type", "implied"}},
         {{"email_address", "x@example.ca"}}}}});
  ASSERT_EQ(batch.status, 201) << batch.raw_body;
  EXPECT_TRUE(batch.body["id"].get<std::string>().starts_with("cb_"));
  EXPECT_EQ(batch.body["source"], "api");
  EXPECT_EQ(batch.body["file_name"], "spring-list.json");
  EXPECT_EQ(batch.body["attested"], true);
  EXPECT_FALSE(batch.body.contains("defaults")) << "defaults are on the single-batch read only";
  EXPECT_EQ(batch.body["counts"], nlohmann::json({{"rows", 8},
                                                  {"recorded", 2},
                                                  {"express", 1},
                                                  {"implied", 1},
                                                  {"already_recorded", 1},
                                                  {"opted_out", 1},
                                                  {"revoked_by_review", 0},
                                                  {"duplicate_in_file", 1},
                                                  {"invalid", 3}}));
  ASSERT_EQ(batch.body["errors"].size(), 3u);
  EXPECT_EQ(batch.body["errors"][0]["row"], 3);
  EXPECT_EQ(batch.body["errors"][0]["code"], "INVALID_PHONE_NUMBER");
  EXPECT_EQ(batch.body["errors"][1]["field"], "relationship_type");
  EXPECT_EQ(batch.body["errors"][2]["code"], "EMAIL_COMING_SOON");

  Reply listed = api.call("GET", "/v1/compliance/consents?phone_number=" + encodedNumber(b),
                          bearer(account.test_key));
  ASSERT_EQ(listed.body["data"].size(), 1u);
  EXPECT_EQ(listed.body["data"][0]["consentBatchId"], batch.body["id"]);
  EXPECT_EQ(listed.body["data"][0]["expiresAt"], "2028-10-01T00:00:00.000Z");
  EXPECT_EQ(check(account.test_key, "phone_number=" + encodedNumber(opted_out)).body["reason"],
            "OPT_OUT");

  std::string path = "/v1/compliance/consent-batches/" + batch.body["id"].get<std::string>();
  Reply read = api.call("GET", path, bearer(account.test_key));
  EXPECT_EQ(read.body["defaults"]["source_description"], "Spring contest entry");
  EXPECT_TRUE(read.body["revoked_at"].is_null());
  Reply revoked = api.call("POST", path + "/revoke", bearer(account.test_key));
  ASSERT_EQ(revoked.status, 200) << revoked.raw_body;
  EXPECT_EQ(revoked.body["counts"]["revoked_by_review"], 2);
  EXPECT_FALSE(revoked.body["revoked_at"].is_null());
  EXPECT_EQ(check(account.test_key, "phone_number=" + encodedNumber(a)).body["reason"],
            "NO_CONSENT");
  EXPECT_EQ(check(account.test_key, "phone_number=" + encodedNumber(already)).body["allowed"], true)
      << "consents recorded outside the batch stay";
  EXPECT_EQ(api.call("POST", path + "/revoke", bearer(account.test_key)).status, 409);
  EXPECT_EQ(api.call("GET", path, bearer(account.live_key)).status, 402) << "LIVE key, unfunded";
  TestAccount stranger = signUp(api);
  EXPECT_EQ(api.call("GET", path, bearer(stranger.test_key)).status, 403);
}

TEST_F(Compliance, ABatchMayBeAnUploadedCsvFile) {
  TestAccount account = signUp(api);
  std::string a = subscriber(), b = subscriber();
  std::string csv = "phone_number,consent_type,relationship_type,source_description\r\n" + a +
                    ",,,\"Signed at the till, \"\"Laval\"\" store\"\r\n" + b +
                    ",implied,purchase,\r\n";
  Reply uploaded = api.call(
      "POST",
      "/v1/compliance/consent-batches?attested=true&consent_type=express&file_name=till.csv",
      bearer(account.test_key, {{"Content-Type", "text/csv"}}), nullptr, &csv);
  ASSERT_EQ(uploaded.status, 201) << uploaded.raw_body;
  EXPECT_EQ(uploaded.body["counts"]["express"], 1);
  EXPECT_EQ(uploaded.body["counts"]["implied"], 1);
  EXPECT_EQ(uploaded.body["file_name"], "till.csv");
  Reply listed = api.call("GET", "/v1/compliance/consents?phone_number=" + encodedNumber(a),
                          bearer(account.test_key));
  EXPECT_EQ(listed.body["data"][0]["sourceDescription"], "Signed at the till, \"Laval\" store");

  Reply unattested =
      api.call("POST", "/v1/compliance/consent-batches?consent_type=express",
               bearer(account.test_key, {{"Content-Type", "text/csv"}}), nullptr, &csv);
  EXPECT_EQ(unattested.body["details"][0]["field"], "attested");
  std::string broken = "phone_number\n\"+1514";
  Reply malformed =
      api.call("POST", "/v1/compliance/consent-batches?attested=true&consent_type=express",
               bearer(account.test_key, {{"Content-Type", "text/csv"}}), nullptr, &broken);
  EXPECT_EQ(malformed.status, 422);
  EXPECT_EQ(malformed.body["details"][0]["field"], "body");
  Reply not_here =
      api.call("POST", "/v1/compliance/consents",
               bearer(account.test_key, {{"Content-Type", "text/csv"}}), nullptr, &csv);
  EXPECT_EQ(not_here.status, 415) << "only upload routes take CSV";
  Reply no_defaults = api.call("POST", "/v1/compliance/consent-batches", bearer(account.test_key),
                               {{"attested", true}, {"rows", nlohmann::json::array()}});
  EXPECT_EQ(no_defaults.body["details"][0]["field"], "defaults");
}

TEST_F(Compliance, ASendWithoutConsentOrAfterAnOptOutIsRefusedWith451) {
  TestAccount account = signUp(api);
  std::string phone = subscriber();
  auto send = [&] {
    return api.call("POST", "/v1/messages", bearer(account.test_key),
                    {{"from", "+14165550100"}, {"to", phone}, {"body", "Spring sale!"}});
  };
  Reply refused = send();
  EXPECT_EQ(refused.status, 451);
  EXPECT_EQ(refused.body["code"], "NO_CONSENT");
  consent(
      account.test_key,
      {{"phone_number", phone}, {"consent_type", "implied"}, {"relationship_type", "purchase"}});
  EXPECT_EQ(send().status, 201);
  api.call("POST", "/v1/compliance/opt-outs", bearer(account.test_key),
           {{"phone_number", phone}, {"from_number", "+14165550100"}});
  Reply opted_out = send();
  EXPECT_EQ(opted_out.status, 451);
  EXPECT_EQ(opted_out.body["code"], "OPT_OUT_BLOCKED");
  EXPECT_EQ(api.call("GET", "/v1/messages", bearer(account.test_key)).body["meta"]["total"], 1)
      << "refused sends leave no message";
}
