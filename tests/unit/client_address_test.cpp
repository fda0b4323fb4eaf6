// Whom per-address limits count (issue 34, item 4): IPv6 clients by their /64.
#include "api/http/client_address.h"

#include <gtest/gtest.h>

using namespace smsgw::api;

TEST(ClientAddress, IPv4AddressesCountAlone) {
  EXPECT_EQ(addressKey("203.0.113.7"), "ip:203.0.113.7");
  EXPECT_NE(addressKey("203.0.113.7"), addressKey("203.0.113.8"));
}

TEST(ClientAddress, IPv6AddressesCountByTheirSlash64) {
  EXPECT_EQ(addressKey("2001:db8:1:2:3:4:5:6"), "ip:2001:db8:1:2::/64");
  EXPECT_EQ(addressKey("2001:db8:1:2:ffff:ffff:ffff:ffff"), addressKey("2001:db8:1:2::1"));
  EXPECT_EQ(addressKey("[2001:db8:1:2::9]"), "ip:2001:db8:1:2::/64");
  EXPECT_NE(addressKey("2001:db8:1:2::1"), addressKey("2001:db8:1:3::1"));
  EXPECT_EQ(addressKey("::1"), "ip:::/64");
}

TEST(ClientAddress, IPv4WrittenAsIPv6CountsAsItself) {
  EXPECT_EQ(addressKey("::ffff:203.0.113.7"), "ip:203.0.113.7");
}
