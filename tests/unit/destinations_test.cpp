// Reserved exchanges, the TEST magic destinations and link-shortener detection.
#include "domain/destinations.h"

#include <gtest/gtest.h>

using namespace smsgw;

namespace {

E164 number(const char* text) {
  return *E164::parse(text);
}

}  // namespace

TEST(ReservedDestinations, Exchange555N11AndTestCodesAreReserved) {
  EXPECT_TRUE(isReservedDestination(number("+14165550123")));
  EXPECT_TRUE(isReservedDestination(number("+16135551234")));
  for (const char* n11 : {"+14162110000", "+14164112345", "+14169119999", "+14168111111"}) {
    EXPECT_TRUE(isReservedDestination(number(n11))) << n11;
  }
  EXPECT_TRUE(isReservedDestination(number("+14169581234")));
  EXPECT_TRUE(isReservedDestination(number("+14169591234")));
}

TEST(ReservedDestinations, OrdinaryExchangesAreNot) {
  for (const char* ok : {"+14162220123", "+15145561234", "+16132120000", "+14165150123",
                         "+14162100000", "+14169600000"}) {
    EXPECT_FALSE(isReservedDestination(number(ok))) << ok;
  }
  EXPECT_FALSE(isReservedDestination(number("+442079460000"))) << "not NANP";
}

TEST(TestDestinations, TheMagicLinesOf555AnyAreaCode) {
  EXPECT_EQ(testDestination(number("+16135550100")), TestDestination::CarrierRefusal);
  EXPECT_EQ(testDestination(number("+15145550101")), TestDestination::Undelivered);
  EXPECT_EQ(testDestination(number("+14165550102")), TestDestination::Landline);
  EXPECT_EQ(testDestination(number("+14165550103")), TestDestination::None);
  EXPECT_EQ(testDestination(number("+14162220100")), TestDestination::None);
}

TEST(LinkShorteners, FoundWithOrWithoutSchemeAndInPunctuation) {
  EXPECT_EQ(findLinkShortener("Sale! https://bit.ly/3xYz"), "bit.ly");
  EXPECT_EQ(findLinkShortener("see bit.ly/abc"), "bit.ly");
  EXPECT_EQ(findLinkShortener("(tinyurl.com/x)."), "tinyurl.com");
  EXPECT_EQ(findLinkShortener("HTTP://T.CO/abc"), "t.co") << "hosts are case-insensitive";
  EXPECT_EQ(findLinkShortener("go to custom.bit.ly/x"), "bit.ly") << "subdomains match";
  EXPECT_EQ(findLinkShortener("Voir www.goo.gl/maps"), "goo.gl");
}

TEST(LinkShorteners, FullUrlsAndLookalikesPass) {
  EXPECT_FALSE(findLinkShortener("https://shop.example.ca/orders/42?ref=sms").has_value());
  EXPECT_FALSE(findLinkShortener("Meet at.com tower").has_value()) << "at.com is not t.co";
  EXPECT_FALSE(findLinkShortener("rabbit.ly.example.com").has_value())
      << "bit.ly only as a domain suffix, not inside another name";
  EXPECT_FALSE(findLinkShortener("Prix: 5.99 $, code A.B").has_value());
  EXPECT_FALSE(findLinkShortener("").has_value());
}
