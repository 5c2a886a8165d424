// The HTTP responder against a fake chat-completions server on 127.0.0.1 started by each test.

#include "support/httplib.hpp"
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "../support/chat_completion.hpp"
#include "../support/fake_http_server.hpp"
#include "claimrag/error.hpp"
#include "claimrag/interrogation/http_responder.hpp"

namespace ci = claimrag::interrogation;

namespace {

/// The shared fake server, serving a chat API under /v1.
class FakeServer : public claimrag::testing::FakeHttpServer {
 public:
  explicit FakeServer(httplib::Server::Handler handler)
      : FakeHttpServer("/v1/chat/completions", std::move(handler)) {}
  [[nodiscard]] std::string endpoint() const { return url("/v1"); }
};

using claimrag::testing::completion;

ci::HttpResponderOptions options_for(const FakeServer& server) {
  ci::HttpResponderOptions options;
  options.endpoint = server.endpoint();
  options.model = "fake-model";
  options.timeout_seconds = 2.0;
  options.retries = 2;
  options.backoff_seconds = 0.01;
  options.concurrency = 2;
  return options;
}

struct Fixture {
  ci::InterrogationPair pair;
  ci::Probe probe;
  std::vector<ci::ProbeRequest> requests;
  Fixture() {
    pair.id = "p1";
    probe.id = "original";
    requests.push_back({&pair, &probe, "C", "Is C true?"});
  }
};

}  // namespace

TEST(InterrogationHttp, SendsTheModelPromptAndKeyAndReturnsAnswersInOrder) {
  std::atomic<int> calls{0};
  std::string seen_body;
  std::string seen_auth;
  std::mutex mutex;
  FakeServer server([&](const httplib::Request& request, httplib::Response& response) {
    const int call = calls++;
    {
      std::lock_guard lock(mutex);
      seen_body = request.body;
      seen_auth = request.get_header_value("Authorization");
    }
    const auto body = nlohmann::json::parse(request.body);
    response.set_content(completion(body["messages"][0]["content"].get<std::string>() + " #" + std::to_string(call >= 0)),
                         "application/json");
  });
  ::setenv("CLAIMRAG_TEST_KEY", "secret", 1);
  auto options = options_for(server);
  options.api_key_variable = "CLAIMRAG_TEST_KEY";
  options.temperature = 0.7;
  ci::HttpResponder responder(options);
  Fixture fixture;
  ci::Probe second;
  second.id = "false";
  fixture.requests.push_back({&fixture.pair, &second, "C", "Is C false?"});
  const auto answers = responder.respond(fixture.requests, 3);
  ::unsetenv("CLAIMRAG_TEST_KEY");
  ASSERT_EQ(answers.size(), 2U);
  EXPECT_EQ(answers[0], (std::vector<std::string>(3, "Is C true? #1")));
  EXPECT_EQ(answers[1], (std::vector<std::string>(3, "Is C false? #1")));
  EXPECT_EQ(calls.load(), 6);
  EXPECT_EQ(responder.failures(), 0U);
  const auto body = nlohmann::json::parse(seen_body);
  EXPECT_EQ(body["model"], "fake-model");
  EXPECT_EQ(body["temperature"], 0.7);
  EXPECT_EQ(body["messages"][0]["role"], "user");
  EXPECT_EQ(seen_auth, "Bearer secret");
}

TEST(InterrogationHttp, AServerErrorIsRetried) {
  std::atomic<int> calls{0};
  FakeServer server([&](const httplib::Request&, httplib::Response& response) {
    if (calls++ == 0) {
      response.status = 500;
      response.set_content("internal error", "text/plain");
      return;
    }
    response.set_content(completion("Yes"), "application/json");
  });
  ci::HttpResponder responder(options_for(server));
  Fixture fixture;
  const auto answers = responder.respond(fixture.requests, 1);
  EXPECT_EQ(answers[0][0], "Yes");
  EXPECT_EQ(calls.load(), 2);
  EXPECT_EQ(responder.failures(), 0U);
}

TEST(InterrogationHttp, ATimeoutBecomesACountedEmptyAnswerAfterTheRetries) {
  std::atomic<int> calls{0};
  FakeServer server([&](const httplib::Request&, httplib::Response& response) {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    response.set_content(completion("Yes"), "application/json");
  });
  auto options = options_for(server);
  options.timeout_seconds = 0.1;
  options.retries = 1;
  ci::HttpResponder responder(options);
  Fixture fixture;
  const auto started = std::chrono::steady_clock::now();
  const auto answers = responder.respond(fixture.requests, 1);
  const auto elapsed = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(answers[0][0], "");
  EXPECT_EQ(responder.failures(), 1U);
  EXPECT_EQ(calls.load(), 2);  // the first attempt and one retry
  // Two attempts of 0.1 s and a 0.01 s backoff: far below the server's 0.6 s per answer.
  EXPECT_LT(std::chrono::duration<double>(elapsed).count(), 0.6);
}

TEST(InterrogationHttp, AnHtmlPageIsNoAnswer) {
  std::atomic<int> calls{0};
  FakeServer server([&](const httplib::Request&, httplib::Response& response) {
    ++calls;
    response.set_content("<html><body><h1>502 Bad Gateway</h1></body></html>", "text/html");
  });
  ci::HttpResponder responder(options_for(server));
  Fixture fixture;
  const auto answers = responder.respond(fixture.requests, 2);
  EXPECT_EQ(answers[0], (std::vector<std::string>{"", ""}));
  EXPECT_EQ(responder.failures(), 2U);
  EXPECT_EQ(calls.load(), 6);  // 2 answers x (1 + 2 retries)
}

TEST(InterrogationHttp, BadOptionsAreUsageErrors) {
  ci::HttpResponderOptions options;
  options.model = "m";
  options.endpoint = "127.0.0.1:8080";
  EXPECT_THROW(ci::HttpResponder{options}, claimrag::UsageError);
  options.endpoint = "http://127.0.0.1:1/v1";
  options.model = "";
  EXPECT_THROW(ci::HttpResponder{options}, claimrag::UsageError);
  options.model = "m";
  options.concurrency = 0;
  EXPECT_THROW(ci::HttpResponder{options}, claimrag::UsageError);
  options.concurrency = 1;
  options.timeout_seconds = 0.0;
  EXPECT_THROW(ci::HttpResponder{options}, claimrag::UsageError);
}

TEST(InterrogationHttp, BadTemperaturesAndCapsAreUsageErrors) {
  ci::HttpResponderOptions options;
  options.model = "m";
  options.endpoint = "http://127.0.0.1:1/v1";
  for (const double temperature : {-1.0, std::nan(""), HUGE_VAL}) {
    options.temperature = temperature;
    EXPECT_THROW(ci::HttpResponder{options}, claimrag::UsageError) << temperature;
  }
  options.temperature = 0.0;
  options.max_reply_bytes = 0;
  EXPECT_THROW(ci::HttpResponder{options}, claimrag::UsageError);
  options.max_reply_bytes = 10;
  options.deadline_seconds = 0.0;
  EXPECT_THROW(ci::HttpResponder{options}, claimrag::UsageError);
}

// A server that sends a whole, valid completion one byte every 50 ms (about 4 s in all): each wait
// for a byte is far below the 1 s timeout, so only the 0.5 s deadline of the attempt can end it.
TEST(InterrogationHttp, ADrippingReplyIsEndedByTheAttemptsDeadline) {
  const std::string reply = completion("Yes");
  FakeServer server([&](const httplib::Request&, httplib::Response& response) {
    response.set_chunked_content_provider("application/json", [reply](std::size_t offset, httplib::DataSink& sink) {
      if (offset >= reply.size()) {
        sink.done();
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      return sink.write(reply.data() + offset, 1);
    });
  });
  auto options = options_for(server);
  options.timeout_seconds = 1.0;
  options.deadline_seconds = 0.5;
  options.retries = 0;
  ci::HttpResponder responder(options);
  Fixture fixture;
  const auto answers = responder.respond(fixture.requests, 1);
  EXPECT_EQ(answers[0][0], "");
  EXPECT_EQ(responder.failures(), 1U);
  EXPECT_NE(responder.failure(fixture.requests[0], 0).find("deadline"), std::string::npos)
      << responder.failure(fixture.requests[0], 0);
}

TEST(InterrogationHttp, AReplyLongerThanTheCapIsCutAndCountedAsAFailure) {
  std::atomic<int> calls{0};
  FakeServer server([&](const httplib::Request&, httplib::Response& response) {
    ++calls;
    response.set_content(completion(std::string(5000, 'x')), "application/json");
  });
  auto options = options_for(server);
  options.max_reply_bytes = 1000;
  options.retries = 1;
  ci::HttpResponder responder(options);
  Fixture fixture;
  const auto answers = responder.respond(fixture.requests, 1);
  EXPECT_EQ(answers[0][0], "");
  EXPECT_EQ(responder.failures(), 1U);
  EXPECT_EQ(calls.load(), 1);  // the same reply would be cut again: not retried
  EXPECT_NE(responder.failure(fixture.requests[0], 0).find("longer than 1000 bytes"), std::string::npos);
  options.max_reply_bytes = 6000;  // the same reply under a larger cap is an answer
  ci::HttpResponder larger(options);
  EXPECT_EQ(larger.respond(fixture.requests, 1)[0][0], std::string(5000, 'x'));
  EXPECT_EQ(larger.failure(fixture.requests[0], 0), "");
}

TEST(InterrogationHttp, EachFailedAnswerKeepsItsReason) {
  FakeServer server([&](const httplib::Request&, httplib::Response& response) {
    response.status = 401;
    response.set_content("unauthorized", "text/plain");
  });
  auto options = options_for(server);
  options.retries = 0;
  ci::HttpResponder responder(options);
  Fixture fixture;
  (void)responder.respond(fixture.requests, 2);
  EXPECT_EQ(responder.failures(), 2U);
  EXPECT_EQ(responder.failure(fixture.requests[0], 0), "HTTP status 401: unauthorized");
  EXPECT_EQ(responder.failure(fixture.requests[0], 1), "HTTP status 401: unauthorized");
}
