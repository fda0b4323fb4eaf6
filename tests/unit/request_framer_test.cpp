// The edge's framing of raw bytes into requests: what reaches a route, what is refused before
// the body is read, and when a connection must close.
#include "api/http/request_framer.h"

#include <gtest/gtest.h>

using namespace smsgw;
using namespace smsgw::api;
using Kind = RequestFramer::Event::Kind;
using namespace std::chrono_literals;

namespace {

const auto t0 = RequestFramer::Clock::time_point{} + 1h;

FramerLimits smallLimits() {
  FramerLimits limits;
  limits.max_header_bytes = 1024;
  limits.max_body_bytes = 100;
  limits.header_timeout = 2s;
  limits.body_timeout = 5s;
  return limits;
}

std::vector<RequestFramer::Event> feedAll(RequestFramer& framer, std::string_view bytes) {
  return framer.feed(bytes, t0);
}

ErrorCode onlyRefusal(const std::vector<RequestFramer::Event>& events) {
  EXPECT_EQ(events.size(), 1u);
  EXPECT_EQ(events.back().kind, Kind::Refusal);
  return events.back().refusal;
}

}  // namespace

TEST(RequestFramer, ReadsARequestWithItsHeadersAndBody) {
  RequestFramer framer(smallLimits());
  auto events = feedAll(framer,
                        "POST /v1/messages?limit=5 HTTP/1.1\r\nHost: x\r\nContent-Type: "
                        "application/json\r\nContent-Length: 7\r\nX-Empty:\r\nAuthorization: "
                        "Bearer k\r\n\r\n{\"a\":1}");
  ASSERT_EQ(events.size(), 1u);
  const auto& request = events[0].request;
  EXPECT_EQ(request.method, "POST");
  EXPECT_EQ(request.target, "/v1/messages?limit=5");
  EXPECT_EQ(request.body, "{\"a\":1}");
  EXPECT_TRUE(request.keep_alive);
  ASSERT_EQ(request.headers.size(), 5u);
  EXPECT_EQ(request.headers[3].first, "X-Empty");
  EXPECT_EQ(request.headers[3].second, "");
  EXPECT_EQ(request.headers[4].first, "Authorization");
  EXPECT_EQ(request.headers[4].second, "Bearer k");
  EXPECT_FALSE(framer.closed());
}

TEST(RequestFramer, ReadsARequestDeliveredOneByteAtATime) {
  RequestFramer framer(smallLimits());
  std::string bytes = "PATCH /v1/webhooks/wh_1 HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}";
  std::vector<RequestFramer::Event> events;
  for (char c : bytes) {
    auto more = framer.feed(std::string_view(&c, 1), t0);
    events.insert(events.end(), more.begin(), more.end());
  }
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].request.method, "PATCH");
  EXPECT_EQ(events[0].request.headers[0].first, "Content-Length");
  EXPECT_EQ(events[0].request.body, "{}");
}

TEST(RequestFramer, AnswersEveryPipelinedRequestInOrder) {
  RequestFramer framer(smallLimits());
  auto events = feedAll(framer,
                        "GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 1\r\n\r\nx"
                        "GET /c HTTP/1.1\r\n\r\nGET /d HT");
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].request.target, "/a");
  EXPECT_EQ(events[1].request.target, "/b");
  EXPECT_EQ(events[1].request.body, "x");
  EXPECT_EQ(events[2].request.target, "/c");
  auto rest = feedAll(framer, "TP/1.1\r\n\r\n");
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].request.target, "/d");
}

TEST(RequestFramer, DeChunksAChunkedBody) {
  RequestFramer framer(smallLimits());
  auto events = feedAll(framer,
                        "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde"
                        "\r\n0\r\n\r\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].request.body, "abcde");
}

TEST(RequestFramer, RefusesADeclaredBodyOverTheLimitBeforeReadingIt) {
  RequestFramer framer(smallLimits());
  auto events = feedAll(framer, "POST /x HTTP/1.1\r\nContent-Length: 101\r\n\r\n");
  EXPECT_EQ(onlyRefusal(events), ErrorCode::FST_ERR_CTP_BODY_TOO_LARGE);
  EXPECT_TRUE(framer.closed());
  EXPECT_TRUE(feedAll(framer, std::string(1000, 'a')).empty()) << "a closed framer reads nothing";
}

TEST(RequestFramer, RefusesAHugeDeclaredLengthAsTooLarge) {
  RequestFramer framer(smallLimits());
  auto events = feedAll(framer, "POST /x HTTP/1.1\r\nContent-Length: 99999999999999999\r\n\r\n");
  EXPECT_EQ(onlyRefusal(events), ErrorCode::FST_ERR_CTP_BODY_TOO_LARGE);
}

TEST(RequestFramer, RefusesAChunkedBodyOnceItPassesTheLimit) {
  RequestFramer framer(smallLimits());
  auto events = feedAll(framer, "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n64\r\n" +
                                    std::string(100, 'a') + "\r\n1\r\nb\r\n");
  EXPECT_EQ(onlyRefusal(events), ErrorCode::FST_ERR_CTP_BODY_TOO_LARGE);
}

TEST(RequestFramer, RefusesAmbiguousOrMalformedFraming) {
  const char* malformed[] = {
      "POST /x HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
      "POST /x HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
      "POST /x HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "GET /x HTTP/1.1\r\nNoColonHere\r\n\r\n",
      "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  // a TLS hello on the plain port
      "GET /x HTTP/2.0\r\n\r\n",
      "GET /x HTTP/1.1\r\nBad Name: v\r\n\r\n",
      "GET\r\n\r\n",
  };
  for (const char* bytes : malformed) {
    RequestFramer framer(smallLimits());
    SCOPED_TRACE(bytes);
    EXPECT_EQ(onlyRefusal(feedAll(framer, bytes)), ErrorCode::FST_ERR_BAD_REQUEST);
  }
}

TEST(RequestFramer, ReadsAFoldedHeaderLineAsOneValueJoinedBySpace) {
  // RFC 9112 5.2: a server either refuses obs-fold or reads it as a space.
  RequestFramer framer(smallLimits());
  auto events = feedAll(framer, "GET /x HTTP/1.1\r\nX-Folded: a\r\n b\r\n\r\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].request.headers[0].second, "a b");
}

TEST(RequestFramer, RefusesHeadersOverTheLimit) {
  RequestFramer framer(smallLimits());
  auto events = feedAll(framer, "GET /x HTTP/1.1\r\nX-Big: " + std::string(2000, 'a') + "\r\n\r\n");
  EXPECT_EQ(onlyRefusal(events), ErrorCode::FST_ERR_HEADERS_TOO_LARGE);
}

TEST(RequestFramer, ClosesAfterARequestThatDoesNotKeepTheConnection) {
  RequestFramer close11(smallLimits());
  auto events =
      feedAll(close11, "GET /a HTTP/1.1\r\nConnection: close\r\n\r\nGET /b HTTP/1.1\r\n\r\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_FALSE(events[0].request.keep_alive);
  EXPECT_TRUE(close11.closed());

  RequestFramer http10(smallLimits());
  auto plain = feedAll(http10, "GET /a HTTP/1.0\r\n\r\n");
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_FALSE(plain[0].request.keep_alive) << "HTTP/1.0 closes unless asked to keep alive";
  EXPECT_EQ(plain[0].request.http_minor, 0);

  RequestFramer kept10(smallLimits());
  auto kept = feedAll(kept10, "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_TRUE(kept[0].request.keep_alive);
}

TEST(RequestFramer, SaysContinueWhenTheClientWaitsForIt) {
  RequestFramer framer(smallLimits());
  auto events =
      feedAll(framer, "POST /x HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, Kind::Continue);
  auto rest = feedAll(framer, "{}");
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].request.body, "{}");
}

TEST(RequestFramer, ARequestThatStallsIsOverdue) {
  RequestFramer framer(smallLimits());
  EXPECT_FALSE(framer.overdue(t0 + 1h)) << "an idle connection is not a stalled request";
  framer.feed("GET /x HTTP/1.1\r\nHost:", t0);
  EXPECT_FALSE(framer.overdue(t0 + 2s));
  EXPECT_EQ(framer.overdue(t0 + 2s + 1ms), ErrorCode::FST_ERR_REQUEST_TIMEOUT);

  RequestFramer body(smallLimits());
  body.feed("POST /x HTTP/1.1\r\nContent-Length: 10\r\n\r\nab", t0);
  EXPECT_FALSE(body.overdue(t0 + 5s)) << "the body has its own, longer time";
  EXPECT_EQ(body.overdue(t0 + 5s + 1ms), ErrorCode::FST_ERR_REQUEST_TIMEOUT);
  body.feed("cdefghij", t0 + 4s);
  EXPECT_FALSE(body.overdue(t0 + 1h)) << "a finished request is not overdue";
}
