// Form bodies at the HTTP edge (OAuth's token, revoke and consent requests): decoded as
// browsers and OAuth clients encode them, each name once, and only where a route takes them.
#include <gtest/gtest.h>

#include "api/http/edge_request.h"
#include "domain/errors.h"

using namespace smsgw;
using namespace smsgw::api;

namespace {

ApiRequest formPost(std::string body,
                    std::string content_type = "application/x-www-form-urlencoded") {
  ApiRequest req;
  req.method = "POST";
  req.headers["content-type"] = std::move(content_type);
  req.raw_body = std::move(body);
  return req;
}

ErrorCode refusalOf(ApiRequest req, BodyKinds kinds) {
  try {
    readBody(req, 4096, kinds);
  } catch (const ApiError& e) {
    return e.code();
  }
  ADD_FAILURE() << "accepted: " << req.raw_body.substr(0, 80);
  return ErrorCode::INTERNAL_ERROR;
}

}  // namespace

TEST(FormBody, PlusIsASpaceAndEscapesAreDecoded) {
  ApiRequest req = formPost(
      "grant_type=authorization_code&code=a%2Bb%3D&redirect_uri=http%3A%2F%2F127.0.0.1%3A5173%2Fcb"
      "&state=two+words&empty=&flag",
      "application/x-www-form-urlencoded; charset=UTF-8");
  readBody(req, 4096, {.form = true});
  EXPECT_EQ(req.form.at("grant_type"), "authorization_code");
  EXPECT_EQ(req.form.at("code"), "a+b=");
  EXPECT_EQ(req.form.at("redirect_uri"), "http://127.0.0.1:5173/cb");
  EXPECT_EQ(req.form.at("state"), "two words");
  EXPECT_EQ(req.form.at("empty"), "");
  EXPECT_EQ(req.form.at("flag"), "");
  EXPECT_TRUE(req.body.is_null());
}

TEST(FormBody, ANameGivenTwiceOrControlCharactersAreRefused) {
  EXPECT_EQ(refusalOf(formPost("code=a&code=b"), {.form = true}), ErrorCode::VALIDATION_ERROR);
  EXPECT_EQ(refusalOf(formPost("code=a%00b"), {.form = true}), ErrorCode::VALIDATION_ERROR);
  EXPECT_EQ(refusalOf(formPost("code=%FF"), {.form = true}), ErrorCode::VALIDATION_ERROR);
}

TEST(FormBody, OnlyRoutesThatTakeFormsReadThemAndTheSizeLimitHolds) {
  EXPECT_EQ(refusalOf(formPost("code=a"), {}), ErrorCode::FST_ERR_CTP_INVALID_MEDIA_TYPE);
  EXPECT_EQ(refusalOf(formPost("code=" + std::string(5000, 'a')), {.form = true}),
            ErrorCode::FST_ERR_CTP_BODY_TOO_LARGE);
  // A JSON body still reads as JSON where forms are also taken.
  ApiRequest json = formPost(R"({"code":"a"})", "application/json");
  readBody(json, 4096, {.form = true});
  EXPECT_EQ(json.body["code"], "a");
  EXPECT_TRUE(json.form.empty());
}

// Issue 34, item 8: queries are read as forms encode them (URLSearchParams, browsers' forms),
// so a search for "ha cUSTOM" sent as "ha+cUSTOM" finds what "ha%20cUSTOM" finds.
TEST(FormBody, AQueryIsReadAsAFormEncodesIt) {
  FramedRequest framed;
  framed.method = "GET";
  framed.target = "/v1/contact-groups?search=ha+cUSTOM&to=%2B15145550100&plus=1%2B1";
  EdgeRequest edge = readEdgeRequest(std::move(framed), "127.0.0.1");
  ASSERT_FALSE(edge.refusal);
  EXPECT_EQ(edge.request.path, "/v1/contact-groups");
  EXPECT_EQ(edge.request.query.at("search"), "ha cUSTOM");
  EXPECT_EQ(edge.request.query.at("to"), "+15145550100");
  EXPECT_EQ(edge.request.query.at("plus"), "1+1");
}
