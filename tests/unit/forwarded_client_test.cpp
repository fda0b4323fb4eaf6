// Who the client is behind the load balancer (api/http/forwarded_client.h): X-Forwarded-For is
// believed only from a trusted proxy, and only its rightmost untrusted address counts, so a
// client cannot pick the address its limits are counted under.
#include "api/http/forwarded_client.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace smsgw::api;

TEST(ForwardedClient, OnlyATrustedPeersHeaderIsBelieved) {
  auto proxies = TrustedProxies::parse("10.0.0.0/8, ::1");
  EXPECT_EQ(forwardedClient(proxies, "10.1.2.3", "203.0.113.7"), "203.0.113.7");
  EXPECT_EQ(forwardedClient(proxies, "::1", "203.0.113.7"), "203.0.113.7");
  EXPECT_EQ(forwardedClient(proxies, "198.51.100.4", "203.0.113.7"), "198.51.100.4")
      << "a client talking to the API directly names itself in vain";
  EXPECT_EQ(forwardedClient(proxies, "10.1.2.3", std::nullopt), "10.1.2.3")
      << "the balancer's own health checks count as the balancer";
  EXPECT_EQ(forwardedClient(TrustedProxies::parse(""), "10.1.2.3", "203.0.113.7"), "10.1.2.3")
      << "none trusted by default";
}

TEST(ForwardedClient, WhatAClientWroteBeforeTheBalancersEntryIsNeverRead) {
  auto proxies = TrustedProxies::parse("172.20.0.0/16");
  // The client sent "X-Forwarded-For: 1.1.1.1"; the balancer appended the address it saw.
  EXPECT_EQ(forwardedClient(proxies, "172.20.0.5", "1.1.1.1, 203.0.113.7"), "203.0.113.7");
  // Two trusted hops (a balancer behind another): the first untrusted from the right counts.
  EXPECT_EQ(forwardedClient(proxies, "172.20.0.5", "1.1.1.1, 203.0.113.7, 172.20.0.9"),
            "203.0.113.7");
  // Garbage where an address should be stops the walk at the last trusted hop.
  EXPECT_EQ(forwardedClient(proxies, "172.20.0.5", "203.0.113.7, not-an-address"), "172.20.0.5");
  EXPECT_EQ(forwardedClient(proxies, "172.20.0.5", ""), "172.20.0.5");
}

TEST(ForwardedClient, NetworksMatchByPrefixInBothFamilies) {
  auto proxies = TrustedProxies::parse("192.168.4.0/22,2001:db8:aa::/48, 127.0.0.1");
  EXPECT_TRUE(proxies.contains("192.168.7.255"));
  EXPECT_FALSE(proxies.contains("192.168.8.0"));
  EXPECT_TRUE(proxies.contains("2001:db8:aa:ffff::1"));
  EXPECT_TRUE(proxies.contains("[2001:db8:aa::2]"));
  EXPECT_FALSE(proxies.contains("2001:db8:ab::1"));
  EXPECT_TRUE(proxies.contains("::ffff:127.0.0.1")) << "IPv4 written as IPv6 is itself";
  EXPECT_FALSE(proxies.contains("127.0.0.2"));
  EXPECT_FALSE(proxies.contains("localhost"));
}

TEST(ForwardedClient, AListWithAnythingButAddressesIsRefusedWhole) {
  EXPECT_THROW(TrustedProxies::parse("10.0.0.0/8, balancer"), std::invalid_argument);
  EXPECT_THROW(TrustedProxies::parse("10.0.0.0/33"), std::invalid_argument);
  EXPECT_THROW(TrustedProxies::parse("10.0.0.0/"), std::invalid_argument);
  EXPECT_TRUE(TrustedProxies::parse(" , ").empty());
}
