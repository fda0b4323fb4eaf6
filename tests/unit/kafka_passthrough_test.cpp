// KAFKA_* variables reach librdkafka as settings, named the way Confluent's images name them.
#include <gtest/gtest.h>

#include "adapters/settings.h"

using smsgw::kafkaPassthrough;

TEST(KafkaPassthrough, NamesTheLibrdkafkaSettingTheVariableSpells) {
  const char* environment[] = {"KAFKA_SECURITY_PROTOCOL=SASL_SSL",
                               "KAFKA_SASL_MECHANISMS=PLAIN",
                               "KAFKA_SASL_USERNAME=user=with=equals",
                               "KAFKA_SSL_ENDPOINT__IDENTIFICATION___ALGORITHM=https",
                               "PATH=/usr/bin",
                               nullptr};
  auto properties = kafkaPassthrough(environment);
  EXPECT_EQ(properties.at("security.protocol"), "SASL_SSL");
  EXPECT_EQ(properties.at("sasl.mechanisms"), "PLAIN");
  EXPECT_EQ(properties.at("sasl.username"), "user=with=equals");
  EXPECT_EQ(properties.at("ssl.endpoint_identification-algorithm"), "https");
  EXPECT_EQ(properties.size(), 4u);
}

TEST(KafkaPassthrough, LeavesOutTheVariablesTheProcessesReadThemselves) {
  const char* environment[] = {"KAFKA_BROKERS=a:9092",
                               "KAFKA_BOOTSTRAP_FILE=/x",
                               "KAFKA_GROUP_PREFIX=smsgw",
                               "KAFKA_SESSION_TIMEOUT_MS=6000",
                               "KAFKA_FETCH_WAIT_MAX_MS=20",
                               "KAFKA_=nothing",
                               "KAFKA_CLIENT_RACK=ca-central-1a",
                               nullptr};
  auto properties = kafkaPassthrough(environment);
  ASSERT_EQ(properties.size(), 1u);
  EXPECT_EQ(properties.at("client.rack"), "ca-central-1a");
}
