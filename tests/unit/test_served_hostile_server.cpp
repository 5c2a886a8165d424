// The live transport against servers that misbehave on purpose, on 127.0.0.1: what a server sends
// is bounded before it is buffered (status and header lines, the header block, chunk-size lines,
// the body, its nesting), the deadline holds however the bytes arrive, failures that cannot change
// are not retried, Retry-After is honoured, redirects are reported with their Location, and the API
// key never comes back out. Every server stops on its own; every wait is bounded.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>

#include "../support/fake_http_server.hpp"
#include "../support/raw_http_server.hpp"
#include "../support/temp_folder.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/served/http_transport.hpp"
#include "claimrag/served/secret_redaction.hpp"
#include "claimrag/served/served_options.hpp"

namespace cs = claimrag::served;
using claimrag::testing::FakeHttpServer;
using claimrag::testing::RawHttpServer;

namespace {

constexpr const char* kKeyVariable = "CLAIMRAG_TEST_HOSTILE_KEY";

cs::EndpointOptions quick(const std::string& url) {
  return {.url = url,
          .api_key_variable = kKeyVariable,
          .timeout_seconds = 3.0,
          .deadline_seconds = 3.0,
          .max_reply_bytes = std::size_t{1} << 20,
          .retries = 2,
          .backoff_seconds = 0.01,
          .concurrency = 1};
}

/// One attempt, bounded by `deadline` and `timeout` seconds.
cs::EndpointOptions one_attempt(const std::string& url, double deadline, double timeout) {
  cs::EndpointOptions options = quick(url);
  options.deadline_seconds = deadline;
  options.timeout_seconds = timeout;
  options.retries = 0;
  return options;
}

std::string accept_any(const nlohmann::json&) { return ""; }

const std::vector<cs::JsonRequest>& one_request() {
  static const std::vector<cs::JsonRequest> requests{{"/ask", {{"n", 1}}}};
  return requests;
}

/// Sends `head`, then up to `limit` bytes of `filler` until the client goes away.
RawHttpServer::Writer flooding(std::string head, char filler, std::size_t limit = std::size_t{256} << 20) {
  return [head = std::move(head), filler, limit](int socket, const std::string&) {
    if (!RawHttpServer::send_all(socket, head)) return;
    const std::string block(65536, filler);
    for (std::size_t sent = 0; sent < limit; sent += block.size()) {
      if (!RawHttpServer::send_all(socket, block)) return;
    }
  };
}

/// A complete reply with `status`, extra header lines and `body`.
std::string http_reply(int status, const std::string& body, const std::string& headers = "") {
  return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n" + headers + "\r\n" + body;
}

RawHttpServer::Writer answering(std::string bytes) {
  return [bytes = std::move(bytes)](int socket, const std::string&) { RawHttpServer::send_all(socket, bytes); };
}

struct Timed {
  cs::JsonReply reply;
  double seconds;
};

Timed exchange_timed(const cs::EndpointOptions& options, const std::vector<cs::JsonRequest>& requests = one_request()) {
  cs::HttpTransport transport(options);
  const auto start = std::chrono::steady_clock::now();
  auto replies = transport.exchange(requests, accept_any);
  return {std::move(replies.front()), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

void expect_reason(const cs::JsonReply& reply, const std::string& part) {
  EXPECT_FALSE(reply.ok());
  EXPECT_NE(reply.failure.find(part), std::string::npos) << reply.failure;
}

}  // namespace

TEST(ServedHostileServer, AStatusOrHeaderLineThatNeverEndsIsRefusedAtOnceAndNotRetried) {
  for (const std::string head : {"HTTP/1.1 200 OK", "HTTP/1.1 200 OK\r\nX-Long: "}) {
    RawHttpServer server(flooding(head, 'a'));
    const auto [reply, seconds] = exchange_timed(quick(server.url()));
    expect_reason(reply, "status line or a header line is longer than 65536 bytes");
    EXPECT_LT(seconds, 2.0) << head;
    EXPECT_EQ(server.connections(), 1) << head;
  }
}

TEST(ServedHostileServer, AHeaderLineBetweenTheCapAndLibcurlsBufferIsRefusedToo) {
  RawHttpServer server(answering("HTTP/1.1 200 OK\r\nX-Long: " + std::string(80000, 'a') + "\r\n\r\n{}"));
  const auto [reply, seconds] = exchange_timed(quick(server.url()));
  expect_reason(reply, "header line is longer than 65536 bytes");
}

TEST(ServedHostileServer, EndlessShortHeaderLinesAreCutAtTheHeaderBlockCap) {
  RawHttpServer server([](int socket, const std::string&) {
    if (!RawHttpServer::send_all(socket, "HTTP/1.1 200 OK\r\n")) return;
    std::string lines;
    for (int i = 0; i < 8192; ++i) lines += "X-A: b\r\n";
    for (int round = 0; round < 4096; ++round) {
      if (!RawHttpServer::send_all(socket, lines)) return;
    }
  });
  const auto [reply, seconds] = exchange_timed(quick(server.url()));
  expect_reason(reply, "headers are longer than 65536 bytes");
  EXPECT_LT(seconds, 2.0);
  EXPECT_EQ(server.connections(), 1);
}

TEST(ServedHostileServer, TheHeaderCapsAreWithinTheReplyCap) {
  RawHttpServer server(answering(http_reply(200, "{}", "X-Pad: " + std::string(500, 'p') + "\r\n")));
  auto options = quick(server.url());
  options.max_reply_bytes = 300;
  expect_reason(exchange_timed(options).reply, "longer than 300 bytes");
}

TEST(ServedHostileServer, AChunkSizeLineThatNeverEndsIsRefusedAtOnce) {
  RawHttpServer server(flooding("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1", '1'));
  const auto [reply, seconds] = exchange_timed(quick(server.url()));
  EXPECT_FALSE(reply.ok());
  EXPECT_LT(seconds, 2.0);
}

TEST(ServedHostileServer, AnEndlessChunkExtensionEndsWithinTheTimeoutWithoutBeingBuffered) {
  RawHttpServer server(flooding("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;", 'x', std::size_t{64} << 20));
  const auto [reply, seconds] = exchange_timed(one_attempt(server.url(), 3.0, 1.0));
  EXPECT_FALSE(reply.ok());
  EXPECT_LT(seconds, 3.5);
}

TEST(ServedHostileServer, ADripFedReplyEndsAtTheDeadline) {
  RawHttpServer server([](int socket, const std::string&) {
    if (!RawHttpServer::send_all(socket, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")) return;
    for (int i = 0; i < 200; ++i) {  // 10 s at most
      if (!RawHttpServer::send_all(socket, " ")) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  const auto [reply, seconds] = exchange_timed(one_attempt(server.url(), 1.0, 5.0));
  expect_reason(reply, "no complete reply within the deadline of 1 s");
  EXPECT_GE(seconds, 0.9);
  EXPECT_LT(seconds, 1.5);
}

TEST(ServedHostileServer, ASilentServerEndsAtTheDeadlineEvenWithALongTimeout) {
  RawHttpServer server([&](int, const std::string&) {
    for (int i = 0; i < 50; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));  // 1 s, then closes
  });
  const auto [reply, seconds] = exchange_timed(one_attempt(server.url(), 0.5, 30.0));
  expect_reason(reply, "deadline");
  EXPECT_LT(seconds, 1.0);
}

TEST(ServedHostileServer, ARedirectIsReportedWithItsLocationAndNotFollowedOrRetried) {
  RawHttpServer server(answering(http_reply(301, "", "Location: https://elsewhere.example/v1/ask\r\n")));
  const auto [reply, seconds] = exchange_timed(quick(server.url()));
  expect_reason(reply, "HTTP status 301: redirected to https://elsewhere.example/v1/ask");
  EXPECT_EQ(reply.status, 301);
  EXPECT_EQ(server.connections(), 1);
}

TEST(ServedHostileServer, InvalidUtf8IsReportedAsSuch) {
  RawHttpServer server(answering(http_reply(200, "{\"text\": \"caf\xE9\"}")));
  expect_reason(exchange_timed(quick(server.url())).reply, "the body is not valid UTF-8 (byte 13)");
}

TEST(ServedHostileServer, DeeplyNestedJsonIsRefusedNotParsedAndNotRetried) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  RawHttpServer server(answering(http_reply(200, deep)));
  expect_reason(exchange_timed(quick(server.url())).reply, "nests deeper than 128 levels");
  EXPECT_EQ(server.connections(), 1);
  RawHttpServer objects(answering(http_reply(200, std::string(50000, '{'))));  // unbalanced too
  expect_reason(exchange_timed(quick(objects.url())).reply, "nests deeper than 128 levels");
}

TEST(ServedHostileServer, AReplyOverTheCapIsNotRetriedAndARequestsAllowanceRaisesTheCap) {
  const std::string body = "[\"" + std::string(4000, 'x') + "\"]";
  RawHttpServer server([&](int socket, const std::string&) { RawHttpServer::send_all(socket, http_reply(200, body)); });
  auto options = quick(server.url());
  options.max_reply_bytes = 1000;
  expect_reason(exchange_timed(options).reply, "longer than 1000 bytes");
  EXPECT_EQ(server.connections(), 1);
  const std::vector<cs::JsonRequest> large{{"/embed", {{"n", 1}}, 8000}};
  const auto allowed = exchange_timed(options, large).reply;
  EXPECT_TRUE(allowed.ok()) << allowed.failure;
}

TEST(ServedHostileServer, ABodyTheCheckRefusesIsNotRetried) {
  RawHttpServer server(answering(http_reply(200, "{\"other\": 1}")));
  cs::HttpTransport transport(quick(server.url()));
  const auto replies = transport.exchange(one_request(), [](const nlohmann::json&) { return std::string("no \"twice\""); });
  EXPECT_EQ(replies[0].failure, "no \"twice\"");
  EXPECT_EQ(server.connections(), 1);
}

TEST(ServedHostileServer, RetryAfterIsWaitedForAndOneLongerThanTheDeadlineIsNotRetried) {
  std::atomic<int> calls{0};
  RawHttpServer server([&](int socket, const std::string&) {
    RawHttpServer::send_all(socket, calls++ == 0 ? http_reply(503, "{}", "Retry-After: 1\r\n") : http_reply(200, "{\"ok\": 1}"));
  });
  const auto [reply, seconds] = exchange_timed(quick(server.url()));
  EXPECT_TRUE(reply.ok()) << reply.failure;
  EXPECT_GE(seconds, 1.0);
  EXPECT_EQ(calls.load(), 2);

  RawHttpServer later(answering(http_reply(429, "{}", "Retry-After: 3600\r\n")));
  const auto [refused, waited] = exchange_timed(quick(later.url()));
  expect_reason(refused, "retry after 3600 s, longer than the deadline: not retried");
  EXPECT_EQ(later.connections(), 1);
  EXPECT_LT(waited, 1.0);
}

TEST(ServedHostileServer, TheKeyEchoedBackIsRedactedFromFailuresRepliesAndRecordings) {
  const std::string key = "sk-hostile-0123456789";
  ::setenv(kKeyVariable, key.c_str(), 1);
  RawHttpServer echo([](int socket, const std::string& request) {
    const auto at = request.find("Authorization: ");
    const std::string header = request.substr(at, request.find("\r\n", at) - at);
    RawHttpServer::send_all(socket, http_reply(401, "{\"error\": \"bad credentials in " + header + "\"}"));
  });
  auto options = quick(echo.url());
  const auto refused = exchange_timed(options).reply;
  EXPECT_EQ(refused.failure.find(key), std::string::npos) << refused.failure;
  EXPECT_NE(refused.failure.find("Bearer [redacted API key]"), std::string::npos) << refused.failure;

  // A 200 reply quoting the key (escaped as JSON may write it) is redacted in the body and the recording.
  RawHttpServer quoting([&](int socket, const std::string&) {
    RawHttpServer::send_all(socket, http_reply(200, "{\"content\": \"your key is sk\\u002dhostile-0123456789\", \"" + key + "\": 1}"));
  });
  claimrag::testing::TempFolder folder;
  cs::ServedOptions served{quick(quoting.url()), folder.path() / "rec.jsonl", {}};
  {
    auto transport = cs::open_transport(served);
    const auto replies = transport->exchange(one_request(), accept_any);
    ASSERT_TRUE(replies[0].ok()) << replies[0].failure;
    EXPECT_EQ(replies[0].body["content"], "your key is [redacted API key]");
    EXPECT_TRUE(replies[0].body.contains("[redacted API key]"));
  }
  ::unsetenv(kKeyVariable);
  const std::string recording = claimrag::io::read_file(folder.path() / "rec.jsonl");
  EXPECT_EQ(recording.find("hostile-0123456789"), std::string::npos) << recording;
  EXPECT_NE(recording.find("[redacted API key]"), std::string::npos);
}

TEST(ServedHostileServer, ConnectionsAreReusedAcrossRequests) {
  std::mutex mutex;
  std::set<int> ports;
  FakeHttpServer server("/api/ask", [&](const httplib::Request& request, httplib::Response& response) {
    const std::lock_guard lock(mutex);
    ports.insert(request.remote_port);
    response.set_content("{}", "application/json");
  });
  cs::HttpTransport transport(quick(server.url("/api")));
  std::vector<cs::JsonRequest> requests;
  for (int n = 0; n < 4; ++n) requests.push_back({"/ask", {{"n", n}}});
  for (int call = 0; call < 2; ++call) {
    for (const auto& reply : transport.exchange(requests, accept_any)) EXPECT_TRUE(reply.ok()) << reply.failure;
  }
  // Eight requests over one kept connection (the server closes one after five requests).
  EXPECT_LE(ports.size(), 2U);
}

TEST(ServedHostileServer, ProxiesComeFromTheEnvironmentAndLoopbackIsReachedDirectly) {
  std::mutex mutex;
  std::string proxied_target;
  FakeHttpServer proxy("(.*)", [&](const httplib::Request& request, httplib::Response& response) {
    const std::lock_guard lock(mutex);
    proxied_target = request.target;
    response.set_content("{\"via\": \"proxy\"}", "application/json");
  });
  ::setenv("HTTP_PROXY", proxy.url().c_str(), 1);
  ::unsetenv("http_proxy");
  ::unsetenv("NO_PROXY");
  ::unsetenv("no_proxy");
  const auto through = exchange_timed(quick("http://served.invalid:8080/v1")).reply;
  EXPECT_TRUE(through.ok()) << through.failure;
  EXPECT_EQ(proxied_target, "http://served.invalid:8080/v1/ask");

  ::setenv("NO_PROXY", "served.invalid", 1);
  auto direct_options = quick("http://served.invalid:8080/v1");
  direct_options.retries = 0;
  EXPECT_FALSE(exchange_timed(direct_options).reply.ok());  // no such host, and no proxy asked
  ::unsetenv("NO_PROXY");

  FakeHttpServer local("/v1/ask", [](const httplib::Request&, httplib::Response& response) {
    response.set_content("{\"via\": \"direct\"}", "application/json");
  });
  const auto loopback = exchange_timed(quick(local.url("/v1"))).reply;
  ::unsetenv("HTTP_PROXY");
  ASSERT_TRUE(loopback.ok()) << loopback.failure;
  EXPECT_EQ(loopback.body["via"], "direct");
}

TEST(ServedEndpoint, RetryWaitsGrowAreJitteredAlikeInEveryRunAndHonourRetryAfter) {
  cs::EndpointOptions options;
  options.backoff_seconds = 1.0;
  const double first = cs::retry_wait_seconds(options, 1, -1, 42);
  EXPECT_EQ(first, cs::retry_wait_seconds(options, 1, -1, 42));  // a fixed function of the seed
  EXPECT_NE(first, cs::retry_wait_seconds(options, 1, -1, 43));
  EXPECT_GE(first, 1.0);
  EXPECT_LT(first, 1.5);
  const double third = cs::retry_wait_seconds(options, 3, -1, 42);
  EXPECT_GE(third, 4.0);
  EXPECT_LT(third, 6.0);
  EXPECT_GE(cs::retry_wait_seconds(options, 1, 30.0, 42), 30.0);
  options.backoff_seconds = 0.0;
  EXPECT_EQ(cs::retry_wait_seconds(options, 2, -1, 7), 0.0);
}

TEST(ServedEndpoint, LoopbackHostsAndTheKeyRedaction) {
  EXPECT_TRUE(cs::host_is_loopback("http://127.0.0.1:8080/v1"));
  EXPECT_TRUE(cs::host_is_loopback("http://localhost/v1"));
  EXPECT_TRUE(cs::host_is_loopback("http://[::1]:8000"));
  EXPECT_TRUE(cs::host_is_loopback("http://user@127.0.0.2:80"));
  EXPECT_FALSE(cs::host_is_loopback("http://10.0.0.5:8080/v1"));
  EXPECT_FALSE(cs::host_is_loopback("http://127.0.0.1.example.org/v1"));
  EXPECT_FALSE(cs::host_is_loopback("http://localhost.evil.org"));
  EXPECT_EQ(cs::url_host("https://api.example.org:443/v1"), "api.example.org");

  const cs::SecretRedaction redaction("s3cr3t");
  EXPECT_EQ(redaction.text("a s3cr3t and s3cr3ts3cr3t"), "a [redacted API key] and [redacted API key][redacted API key]");
  nlohmann::json value = nlohmann::json::parse(R"({"a": ["x s3cr3t", {"s3cr3t": "s3cr3t"}], "n": 1})");
  redaction.json(value);
  EXPECT_EQ(value.dump(), R"({"a":["x [redacted API key]",{"[redacted API key]":"[redacted API key]"}],"n":1})");
  EXPECT_EQ(cs::SecretRedaction("").text("s3cr3t"), "s3cr3t");
}

TEST(ServedHostileServer, AKeyBoundForPlainHttpToAnotherMachineIsWarnedAbout) {
  const std::string key = "sk-plain-0123456789";
  ::setenv(kKeyVariable, key.c_str(), 1);
  std::ostringstream log;
  const auto previous = spdlog::default_logger();
  spdlog::set_default_logger(std::make_shared<spdlog::logger>("capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(log)));
  { const cs::HttpTransport remote(quick("http://192.0.2.10:8080/v1")); }  // constructing connects to nothing
  const std::string warned = log.str();
  log.str("");
  { const cs::HttpTransport local(quick("http://127.0.0.1:8080/v1")); }
  { const cs::HttpTransport encrypted(quick("https://192.0.2.10/v1")); }
  const std::string quiet = log.str();
  spdlog::set_default_logger(previous);
  ::unsetenv(kKeyVariable);
  EXPECT_NE(warned.find("sent unencrypted over http:// to 192.0.2.10"), std::string::npos) << warned;
  EXPECT_EQ(warned.find(key), std::string::npos) << warned;
  EXPECT_EQ(quiet, "");
}
