#include <gtest/gtest.h>

#include <set>

#include "domain/errors.h"

using namespace smsgw;

TEST(ErrorTable, EveryCodeHasEnglishAndFrenchText) {
  for (const auto& info : allErrors()) {
    EXPECT_FALSE(info.message_en.empty()) << info.name;
    EXPECT_FALSE(info.message_fr.empty()) << info.name;
  }
}

TEST(ErrorTable, DomainCodesAreTranslatedWhileFrameworkCodesMayStayEnglish) {
  for (const auto& info : allErrors()) {
    if (info.name.starts_with("FST_ERR_")) continue;
    EXPECT_NE(info.message_en, info.message_fr) << info.name << " has no French translation";
  }
}

TEST(ErrorTable, NamesAreUniqueAndRoundTrip) {
  std::set<std::string_view> names;
  for (const auto& info : allErrors()) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_EQ(errorCodeFromName(info.name), info.code);
    EXPECT_EQ(&errorInfo(info.code), &info);
  }
  EXPECT_FALSE(errorCodeFromName("NO_SUCH_CODE"));
}

TEST(ErrorTable, StatusesMatchTheSpec) {
  EXPECT_EQ(errorInfo(ErrorCode::UNAUTHORIZED).http_status, 401);
  EXPECT_EQ(errorInfo(ErrorCode::PAYMENT_REQUIRED).http_status, 402);
  EXPECT_EQ(errorInfo(ErrorCode::KEY_FENCED).http_status, 403);
  EXPECT_EQ(errorInfo(ErrorCode::IDEMPOTENCY_KEY_REUSED).http_status, 409);
  EXPECT_EQ(errorInfo(ErrorCode::VERIFICATION_EXPIRED).http_status, 410);
  EXPECT_EQ(errorInfo(ErrorCode::FST_ERR_CTP_BODY_TOO_LARGE).http_status, 413);
  EXPECT_EQ(errorInfo(ErrorCode::FST_ERR_CTP_INVALID_MEDIA_TYPE).http_status, 415);
  EXPECT_EQ(errorInfo(ErrorCode::RECIPIENT_RATE_LIMITED).http_status, 429);
  EXPECT_EQ(errorInfo(ErrorCode::NO_CONSENT).http_status, 451);
  EXPECT_EQ(errorInfo(ErrorCode::TOLLFREE_800_COMING_SOON).http_status, 501);
  EXPECT_EQ(errorInfo(ErrorCode::CARRIER_TIMEOUT).http_status, 503);
}

TEST(ErrorTable, EveryStatusIsAnErrorStatus) {
  for (const auto& info : allErrors()) {
    EXPECT_GE(info.http_status, 400) << info.name;
    EXPECT_LT(info.http_status, 600) << info.name;
  }
}

TEST(ApiErrorType, CarriesDetailsAndRetryAfter) {
  ApiError error(ErrorCode::RATE_LIMITED, {{"limit", 100}}, 3);
  EXPECT_EQ(error.code(), ErrorCode::RATE_LIMITED);
  EXPECT_EQ(error.details()["limit"], 100);
  EXPECT_EQ(error.retryAfterSeconds(), 3);
  ApiError validation = validationError("to", "is required");
  EXPECT_EQ(validation.code(), ErrorCode::VALIDATION_ERROR);
  EXPECT_EQ(validation.details()[0]["field"], "to");
}
