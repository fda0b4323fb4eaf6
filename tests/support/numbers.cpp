#include "tests/support/numbers.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <regex>

#include "domain/crypto.h"
#include "domain/destinations.h"
#include "tests/support/test_env.h"

namespace smsgw::testing {

std::string randomSubscriber(const std::string& area_code) {
  for (;;) {  // never a reserved exchange (555, N11, test codes): sends to those are refused
    unsigned long random = 0;
    for (unsigned char c : crypto::randomBytes(4)) random = random * 256 + c;
    std::string number = "+1" + area_code + std::to_string(2000000 + random % 8000000);
    if (!isReservedDestination(*E164::parse(number))) return number;
  }
}

void verifyOwnerPhone(HttpTestClient& api, const TestAccount& account) {
  std::string phone = randomSubscriber("416");
  std::string path = "/v1/accounts/" + account.id + "/phone-verification";
  Reply sent = api.call("POST", path, bearer(account.live_key), {{"phone_number", phone}});
  ASSERT_EQ(sent.status, 202) << sent.raw_body;
  HttpTestClient sim(simUrl());
  Reply texts = sim.call("GET", "/sim/messages?to=%2B" + phone.substr(1));
  ASSERT_FALSE(texts.body["data"].empty());
  std::smatch code;
  std::string text = texts.body["data"][0]["text"];
  ASSERT_TRUE(std::regex_search(text, code, std::regex(R"((\d{6}))")));
  Reply confirmed = api.call("POST", path, bearer(account.live_key),
                             {{"phone_number", phone}, {"code", code[1].str()}});
  ASSERT_EQ(confirmed.status, 200) << confirmed.raw_body;
}

TestAccount readyToBuy(HttpTestClient& api, long long cents) {
  TestAccount account = signUpAndFund(api, cents);
  verifyOwnerPhone(api, account);
  return account;
}

std::string availableNumber(HttpTestClient& api, const TestAccount& account,
                            const std::string& area_code) {
  Reply found = api.call("GET", "/v1/phone-numbers/search?limit=1&area_codes=" + area_code,
                         bearer(account.live_key));
  EXPECT_EQ(found.status, 200) << found.raw_body;
  if (found.status != 200 || found.body.empty()) return "";
  return found.body[0]["phone_number"];
}

nlohmann::json buyNumber(HttpTestClient& api, const TestAccount& account,
                         const std::string& area_code) {
  Reply bought = api.call("POST", "/v1/phone-numbers", bearer(account.live_key),
                          {{"phone_number", availableNumber(api, account, area_code)}});
  EXPECT_EQ(bought.status, 201) << bought.raw_body;
  return bought.body;
}

std::string withLiveConsent(HttpTestClient& api, const TestAccount& account,
                            const std::string& phone) {
  Reply consent = api.call("POST", "/v1/compliance/consents", bearer(account.live_key),
                           {{"phone_number", phone},
                            {"consent_type", "express"},
                            {"source_description", "Signed up at the counter"}});
  EXPECT_EQ(consent.status, 201) << consent.raw_body;
  return phone;
}

long long balanceOf(HttpTestClient& api, const TestAccount& account) {
  Reply doc = api.call("GET", "/v1/accounts/" + account.id, bearer(account.live_key));
  return doc.body["account"]["balance_cents"];
}

long long ledgerSum(HttpTestClient& api, const TestAccount& account) {
  long long sum = 0;
  std::string before;
  while (true) {
    Reply page = api.call("GET",
                          "/v1/accounts/" + account.id + "/transactions?limit=100" +
                              (before.empty() ? "" : "&before=" + before),
                          bearer(account.live_key));
    for (const auto& entry : page.body["data"]) sum += entry["amount_cents"].get<long long>();
    if (!page.body["has_more"].get<bool>()) return sum;
    before = page.body["data"].back()["id"];
  }
}

AdminRun runAdmin(const std::string& arguments) {
  std::string command = requiredEnv("SMSGW_BUILD_DIR") + "/ops/smsgw-admin " + arguments;
  AdminRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  std::string out;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  for (size_t start = 0; start < out.size();) {
    size_t end = std::min(out.find('\n', start), out.size());
    auto line = nlohmann::json::parse(out.substr(start, end - start), nullptr, false);
    run.lines.push_back(line.is_discarded() ? nlohmann::json(nullptr) : line);
    start = end + 1;
  }
  run.output = run.lines.empty() ? nlohmann::json(nullptr) : run.lines.front();
  return run;
}

}  // namespace smsgw::testing
