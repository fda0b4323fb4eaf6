// The inbound pipeline against a real database: received texts, STOP/START/HELP/YES, the
// inbound cap and replays; and the LIVE hand-off of the automatic replies, at most once.
#include "domain/casl.h"
#include "domain/errors.h"
#include "domain/text_cut.h"
#include "services/compliance/consent_check.h"
#include "tests/integration/numbers_fixture.h"
#include "workers/inbound_keyword/inbound_handler.h"
#include "workers/sender/sender_handler.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

const std::string kSubscriber = "+15145550177";

}  // namespace

class InboundPipelineTest : public NumbersTest {
 protected:
  void SetUp() override {
    account_ = newAccount(1000);
    number_ = "+16135550300";
    buy(account_, number_, at("2027-01-10T10:00:00Z"));
  }
  topics::Record text(const std::string& body, const std::string& carrier_id,
                      const std::string& to = "") {
    topics::InboundSms sms{carrier_id, kSubscriber, to.empty() ? number_ : to,
                           body,       1,           "2027-01-15T10:00:00.000Z"};
    return {"sms.inbound", 0, 0, sms.to, sms.toJson().dump(), {}};
  }
  // Receives a text as the worker would, with a carrier id of its own.
  void receive(const std::string& body) { handler_(text(body, newId("car"))); }
  long long events(const std::string& type) { return count("events WHERE type = '" + type + "'"); }
  std::string lastEventData(const std::string& type) {
    return text("SELECT data::text FROM events WHERE type = '" + type +
                "' ORDER BY created_at DESC LIMIT 1");
  }
  using NumbersTest::text;
  compliance::ConsentDecision consentFrom(const std::string& from) {
    db::Session sql(database_);
    return compliance::checkConsent(*sql, account_, "LIVE", kSubscriber, from,
                                    at("2027-01-15T00:00:00Z"));
  }
  // A PENDING double opt-in request from the account's number to the subscriber.
  void pendingOptIn(const std::string& id, const std::string& expires_at_sql) {
    scratch_.exec(
        "INSERT INTO opt_in_confirmations (id, account_id, mode, status, from_number, "
        "to_number, brand_name, language, expires_at) VALUES ('" +
        id + "', '" + account_ + "', 'LIVE', 'PENDING', '" + number_ + "', '" + kSubscriber +
        "', 'Érable', 'fr', " + expires_at_sql + ")");
  }
  topics::Record outboundRecord(const std::string& message_id) {
    topics::OutboundSms sms{message_id, account_, number_, "LIVE"};
    return {"sms.outbound", 0, 0, number_, sms.toJson().dump(), {}};
  }
  std::string autoReplyId(const std::string& keyword) {
    return text("SELECT id FROM messages WHERE auto_reply_keyword = '" + keyword +
                "' ORDER BY created_at DESC LIMIT 1");
  }

  workers::InboundHandler handler_{context_};
  workers::SenderHandler sender_{context_, carrier_, carrier_hold_};
  std::string account_, number_;
};

TEST_F(InboundPipelineTest, AReceivedTextIsStoredChargedAndAnnouncedOnceHoweverOftenReplayed) {
  auto record = text("Is the store open on Sunday?", "car_1");
  for (int delivery = 0; delivery < 3; ++delivery) handler_(record);
  EXPECT_EQ(count("messages WHERE direction = 'INBOUND'"), 1);
  EXPECT_EQ(text("SELECT status || ' ' || body FROM messages WHERE direction = 'INBOUND'"),
            "RECEIVED Is the store open on Sunday?");
  EXPECT_EQ(count("ledger_entries WHERE kind = 'sms_inbound' AND amount_cents = -1"), 1);
  EXPECT_EQ(events("message.received"), 1);
  auto data = nlohmann::json::parse(lastEventData("message.received"));
  EXPECT_EQ(data["keyword_action"], "ignored");
  EXPECT_EQ(data["cost_cents"], 1);
  EXPECT_EQ(data["from"], kSubscriber);
  EXPECT_EQ(data["to"], number_);
  EXPECT_EQ(data["message_status"], "RECEIVED");
  expectBalanceMatchesLedger(account_);
}

TEST_F(InboundPipelineTest, StopOptsOutRepliesOnceAndTheConsentCheckRefuses) {
  auto record = text("  stop please ", "car_stop");
  EXPECT_TRUE(handler_(record).applied);
  EXPECT_FALSE(handler_(record).applied) << "a replay reports it changed nothing";
  EXPECT_EQ(consentFrom(number_).refusal(), ErrorCode::OPT_OUT_BLOCKED);
  EXPECT_EQ(count("opt_outs WHERE keyword_used = 'STOP PLEASE'"), 1);
  EXPECT_EQ(count("messages WHERE auto_reply_keyword = 'STOP' AND cost_cents = 0 "
                  "AND status = 'QUEUED'"),
            1);
  EXPECT_EQ(count("outbox WHERE topic = 'sms.outbound'"), 1);
  EXPECT_EQ(events("opt_out.recorded"), 1);
  auto recorded = nlohmann::json::parse(lastEventData("opt_out.recorded"));
  EXPECT_EQ(recorded, nlohmann::json({{"phone_number", kSubscriber},
                                      {"from_number", number_},
                                      {"keyword", "STOP PLEASE"}}));
  EXPECT_EQ(nlohmann::json::parse(lastEventData("message.received"))["keyword_action"],
            "opted_out");
  EXPECT_EQ(count("outbox o WHERE topic = 'events' AND o.payload::jsonb->>'type' = "
                  "'opt_out.recorded' AND o.id > (SELECT id FROM outbox WHERE topic = 'events' "
                  "AND payload::jsonb->>'type' = 'message.received')"),
            1)
      << "message.received is published before opt_out.recorded";
}

TEST_F(InboundPipelineTest, StartReinstatesOnlyAfterAnOptOut) {
  receive("START");
  EXPECT_EQ(nlohmann::json::parse(lastEventData("message.received"))["keyword_action"], "ignored");
  EXPECT_EQ(count("messages WHERE auto_reply_keyword IS NOT NULL"), 0);
  receive("ARRÊT");
  EXPECT_TRUE(text("SELECT body FROM messages WHERE auto_reply_keyword = 'STOP'")
                  .find("Vous êtes désabonné") != std::string::npos)
      << "answered in French";
  receive("Unstop");
  EXPECT_EQ(nlohmann::json::parse(lastEventData("message.received"))["keyword_action"],
            "reinstated");
  EXPECT_EQ(events("opt_out.reinstated"), 1);
  EXPECT_EQ(count("opt_outs WHERE reinstate_keyword = 'UNSTOP' AND reinstated_at IS NOT NULL"), 1);
  EXPECT_EQ(count("messages WHERE auto_reply_keyword = 'START'"), 1);
  EXPECT_EQ(consentFrom(number_).reason, "NO_CONSENT") << "reinstated: back to needing consent";
}

TEST_F(InboundPipelineTest, HelpIsAnsweredInTheSubscribersLanguage) {
  receive("help");
  receive("Aide SVP");
  EXPECT_EQ(count("messages WHERE auto_reply_keyword = 'HELP'"), 2);
  EXPECT_EQ(count("messages WHERE auto_reply_keyword = 'HELP' AND body LIKE '%Répondez ARRET%'"),
            1);
  EXPECT_EQ(count("messages WHERE direction = 'INBOUND' AND keyword_action = 'help'"), 2);
}

TEST_F(InboundPipelineTest, OverTheCapTextsAreKeptWithoutContentAndAnnouncedOnce) {
  scratch_.exec("UPDATE accounts SET inbound_sms_daily_cap = 2 WHERE id = '" + account_ + "'");
  for (int i = 0; i < 5; ++i) receive("message " + std::to_string(i));
  EXPECT_EQ(
      count("messages WHERE direction = 'INBOUND' AND NOT inbound_capped AND body IS NOT NULL"), 2);
  EXPECT_EQ(count("messages WHERE inbound_capped AND body IS NULL AND cost_cents = 0"), 3);
  EXPECT_EQ(events("message.received"), 2);
  EXPECT_EQ(events("account.inbound_sms_capped"), 1);
  EXPECT_EQ(nlohmann::json::parse(lastEventData("account.inbound_sms_capped")),
            nlohmann::json({{"cap", 2}, {"window_hours", 24}, {"received_in_window", 2}}));
  receive("STOP");
  EXPECT_EQ(consentFrom(number_).reason, "OPT_OUT") << "STOP keeps working over the cap";
  EXPECT_EQ(count("messages WHERE auto_reply_keyword = 'STOP'"), 1);
  EXPECT_EQ(count("ledger_entries WHERE kind = 'sms_inbound'"), 3);
  expectBalanceMatchesLedger(account_);
}

TEST_F(InboundPipelineTest, AnAccountThatCannotPayStillReceives) {
  std::string broke = newAccount(250);
  buy(broke, "+16135550301", at("2027-01-10T10:00:00Z"));
  handler_(text("hello", "car_broke", "+16135550301"));
  EXPECT_EQ(count("messages WHERE carrier_message_id = 'car_broke' AND cost_cents = 0"), 1);
  EXPECT_EQ(balance(broke), 0);
  expectBalanceMatchesLedger(broke);
}

TEST_F(InboundPipelineTest, ATextToANumberNobodyHoldsIsDropped) {
  handler_(text("hello", "car_nobody", "+16135550999"));
  EXPECT_EQ(count("messages WHERE direction = 'INBOUND'"), 0);
}

TEST_F(InboundPipelineTest, YesConfirmsAPendingDoubleOptInAndStopDeclinesOne) {
  pendingOptIn("oic_1", "now() + interval '7 days'");
  receive("Oui!");
  EXPECT_EQ(text("SELECT status FROM opt_in_confirmations WHERE id = 'oic_1'"), "CONFIRMED");
  EXPECT_EQ(count("opt_in_confirmations WHERE reply_message_id IS NOT NULL"), 1);
  EXPECT_EQ(count("consents WHERE consent_type = 'EXPRESS' AND double_opt_in_confirmation_id = "
                  "'oic_1' AND double_opt_in_confirmed_at IS NOT NULL"),
            1);
  EXPECT_TRUE(consentFrom(number_).allowed);

  pendingOptIn("oic_2", "now() + interval '7 days'");
  receive("STOP");
  EXPECT_EQ(text("SELECT status FROM opt_in_confirmations WHERE id = 'oic_2'"), "DECLINED");
}

TEST_F(InboundPipelineTest, TheAutomaticReplyReachesTheCarrierOnce) {
  receive("HELP");
  std::string reply = autoReplyId("HELP");
  sender_(outboundRecord(reply));
  sender_(outboundRecord(reply));  // replayed
  ASSERT_EQ(carrier_.sent().size(), 1u);
  EXPECT_EQ(carrier_.sent()[0].to, kSubscriber);
  EXPECT_EQ(carrier_.sent()[0].from, number_);
  EXPECT_EQ(text("SELECT status FROM messages WHERE id = '" + reply + "'"), "SENDING");
  EXPECT_EQ(events("message.sent"), 1);
  EXPECT_EQ(count("ledger_entries WHERE reference_id = '" + reply + "'"), 0) << "never charged";
}

TEST_F(InboundPipelineTest, ACarrierRefusalFailsTheReplyWithoutRetrying) {
  receive("HELP");
  carrier_.on_send = [](const FakeCarrier::SentText&) {
    CarrierSendResult refused;
    refused.kind = CarrierSendResult::Kind::Refused;
    refused.error_code = "40008";
    return refused;
  };
  sender_(outboundRecord(autoReplyId("HELP")));
  sender_(outboundRecord(autoReplyId("HELP")));
  EXPECT_EQ(carrier_.sent().size(), 1u);
  EXPECT_EQ(text("SELECT status || ' ' || error_code FROM messages WHERE id = '" +
                 autoReplyId("HELP") + "'"),
            "FAILED CARRIER_ERROR");
  auto failed = nlohmann::json::parse(lastEventData("message.failed"));
  EXPECT_EQ(failed["error_code"], "CARRIER_ERROR");
  EXPECT_EQ(failed["to"], kSubscriber);
}

TEST_F(InboundPipelineTest, ASenderThatDiedMidCallNeverSendsASecondText) {
  receive("HELP");
  std::string reply = autoReplyId("HELP");
  carrier_.on_send = [](const FakeCarrier::SentText&) -> CarrierSendResult {
    throw std::runtime_error("killed mid-call");
  };
  EXPECT_THROW(sender_(outboundRecord(reply)), std::runtime_error);
  carrier_.on_send = nullptr;
  EXPECT_THROW(sender_(outboundRecord(reply)), topics::RetryableError)
      << "a hand-off just started may still be in flight elsewhere";
  scratch_.exec(
      "UPDATE messages SET handoff_started_at = now() - interval '2 minutes' "
      "WHERE id = '" +
      reply + "'");
  sender_(outboundRecord(reply));
  EXPECT_EQ(carrier_.sent().size(), 1u) << "the stale hand-off is not sent again";
  EXPECT_EQ(text("SELECT error_code FROM messages WHERE id = '" + reply + "'"), "STALE_QUEUED");
  auto failed = nlohmann::json::parse(lastEventData("message.failed"));
  EXPECT_EQ(failed["error_code"], "STALE_QUEUED");
  EXPECT_FALSE(failed.contains("to")) << "form c: no to, no from";
  EXPECT_FALSE(failed.contains("from"));
}

TEST_F(InboundPipelineTest, AnOptInRequestLapsesAfterSevenDays) {
  pendingOptIn("oic_old", "now() - interval '1 second'");
  receive("YES");
  EXPECT_EQ(text("SELECT status FROM opt_in_confirmations WHERE id = 'oic_old'"), "EXPIRED");
  EXPECT_EQ(count("consents"), 0) << "a late YES records no consent";
  EXPECT_EQ(consentFrom(number_).reason, "NO_CONSENT");
}

// Issue 49: the account's name signs every automatic reply. Cut at 40 bytes, "é" across the
// cut made the reply invalid UTF-8, PostgreSQL refused it, and the STOP was rolled back with it.
// Each keyword, for each kind of name, is acted on and answered, signed with the name's first
// 40 characters (PostgreSQL stores only valid UTF-8, so a stored reply is a valid one).
TEST_F(InboundPipelineTest, EveryKeywordIsActedOnAndAnsweredWhateverTheNameHoldsAtTheCut) {
  std::string a39(39, 'A');
  const std::vector<std::pair<std::string, std::string>> names = {
      {"accent at the cut", a39 + "é Co"},
      {"a real one", "Clinique médicale Saint-Jérôme-de-l'Île-Perrot"},
      {"combining mark at the cut", a39 + "e\xCC\x81"
                                          "cole"},
      {"emoji at the cut", a39 + "\xF0\x9F\x8D\x81 Sirop"},
      {"Chinese at the cut", std::string(38, 'B') + "\xE6\xBC\xA2\xE5\xAD\x97\xE5\x95\x86"},
  };
  for (const auto& [kind, name] : names) {
    SCOPED_TRACE(kind);
    scratch_.exec("UPDATE accounts SET name = $n$" + name + "$n$ WHERE id = '" + account_ + "'");
    scratch_.exec("DELETE FROM opt_outs");
    // An emoji is not a brand's character: that name signs nothing (textSignature).
    std::string signature =
        cutToCharacters(textSignature(name, std::nullopt), kSignatureCharacters);
    EXPECT_EQ(signature.empty(), kind == "emoji at the cut");
    for (const char* keyword : {"STOP", "START", "ARRÊT", "UNSTOP", "HELP", "Aide"}) {
      long long replies = count("messages WHERE auto_reply_keyword IS NOT NULL");
      ASSERT_NO_THROW(receive(keyword)) << keyword;
      EXPECT_EQ(count("messages WHERE auto_reply_keyword IS NOT NULL"), replies + 1) << keyword;
      std::string body = text(
          "SELECT body FROM messages WHERE auto_reply_keyword IS NOT NULL ORDER BY created_at "
          "DESC, id DESC LIMIT 1");
      EXPECT_TRUE(body.starts_with(signature)) << keyword << ": " << body;
    }
    EXPECT_EQ(count("opt_outs WHERE reinstated_at IS NOT NULL"), 2) << "two STOPs, two STARTs";
  }
}

// The opt-out and its confirmation are apart: a reply that cannot be written (here a trigger
// refuses it as PostgreSQL refused the invalid one) leaves the STOP recorded, announced and
// enforced, and the record is not retried.
TEST_F(InboundPipelineTest, AStopIsRecordedEvenWhenItsReplyCannotBeWritten) {
  scratch_.exec(
      "CREATE FUNCTION refuse_replies() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
      "RAISE EXCEPTION 'invalid byte sequence for encoding \"UTF8\"' USING ERRCODE = '22021'; "
      "END $$; CREATE TRIGGER refuse_replies BEFORE INSERT ON messages FOR EACH ROW "
      "WHEN (NEW.auto_reply_keyword IS NOT NULL) EXECUTE FUNCTION refuse_replies()");
  EXPECT_TRUE(handler_(text("STOP", "car_stop_no_reply")).applied);
  EXPECT_EQ(count("opt_outs WHERE keyword_used = 'STOP' AND reinstated_at IS NULL"), 1);
  EXPECT_EQ(consentFrom(number_).refusal(), ErrorCode::OPT_OUT_BLOCKED);
  EXPECT_EQ(events("opt_out.recorded"), 1);
  EXPECT_EQ(events("message.received"), 1);
  EXPECT_EQ(count("messages WHERE direction = 'INBOUND' AND keyword_action = 'opted_out'"), 1);
  EXPECT_EQ(count("messages WHERE auto_reply_keyword IS NOT NULL"), 0);
  EXPECT_EQ(count("outbox WHERE topic = 'sms.outbound'"), 0)
      << "no hand-off of a reply never written";
  EXPECT_EQ(count("ledger_entries WHERE kind = 'sms_inbound'"), 1);
  expectBalanceMatchesLedger(account_);
}

// Issue 49: the carrier's `parts` was stored and charged as sent: a signed callback claiming
// 1,000 parts cost $10.00. Parts are counted from the text, at most 10.
TEST_F(InboundPipelineTest, PartsAreCountedFromTheTextNotTakenFromTheCarrier) {
  auto withParts = [&](const std::string& body, int claimed, const std::string& carrier_id) {
    topics::InboundSms sms{carrier_id, kSubscriber, number_,
                           body,       claimed,     "2027-01-15T10:00:00.000Z"};
    handler_({"sms.inbound", 0, 0, sms.to, sms.toJson().dump(), {}});
  };
  withParts("Bonjour", 1000, "car_parts_1");
  withParts(std::string(200, 'x'), 1, "car_parts_2");
  withParts(std::string(3000, 'x'), 1000, "car_parts_3");
  EXPECT_EQ(text("SELECT string_agg(segment_count::text || ':' || cost_cents::text, ',' ORDER BY "
                 "carrier_message_id) FROM messages WHERE direction = 'INBOUND'"),
            "1:1,2:2,10:10");
  EXPECT_EQ(count("ledger_entries WHERE kind = 'sms_inbound'"), 3);
  EXPECT_EQ(query("SELECT -sum(amount_cents) FROM ledger_entries WHERE kind = 'sms_inbound'"), 13);
  auto received = nlohmann::json::parse(
      text("SELECT data::text FROM events WHERE type = 'message.received' AND data->>'body' = "
           "'Bonjour'"));
  EXPECT_EQ(received["segment_count"], 1);
  EXPECT_EQ(received["cost_cents"], 1);
  expectBalanceMatchesLedger(account_);
}

// Issue 49, item 6: the account's name went into texts to strangers whatever it held. A sender
// name the owner sets signs them; without one, a name that is not a brand signs nothing.
TEST_F(InboundPipelineTest, RepliesAreSignedWithTheSenderNameOrABrandLikeNameOnly) {
  scratch_.exec(
      "UPDATE accounts SET name = 'Win a prize at example.ca/win now', sender_name = "
      "NULL WHERE id = '" +
      account_ + "'");
  receive("HELP");
  EXPECT_EQ(text("SELECT body FROM messages WHERE auto_reply_keyword = 'HELP'"),
            "Reply STOP to unsubscribe. Message and data rates may apply.");
  scratch_.exec("UPDATE accounts SET sender_name = 'Érable' WHERE id = '" + account_ + "'");
  receive("AIDE");
  EXPECT_EQ(count("messages WHERE auto_reply_keyword = 'HELP' AND body LIKE 'Érable : Répondez%'"),
            1);
}
