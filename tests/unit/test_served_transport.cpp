// The served layer's transports against a fake server on 127.0.0.1: retries and what is not
// retried, replies in request order, the API key in a header only, and recordings that replay
// offline to the same replies (failures as failures) and refuse what they lack.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>

#include "../support/fake_http_server.hpp"
#include "../support/temp_folder.hpp"
#include <sys/stat.h>

#include <algorithm>

#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/served/http_transport.hpp"
#include "claimrag/served/recording.hpp"
#include "claimrag/served/served_options.hpp"

namespace cs = claimrag::served;
using claimrag::testing::FakeHttpServer;

namespace {

cs::EndpointOptions endpoint_of(const FakeHttpServer& server) {
  cs::EndpointOptions options;
  options.url = server.url("/api/");  // a trailing slash is normalized away
  options.timeout_seconds = 2.0;
  options.deadline_seconds = 5.0;
  options.retries = 2;
  options.backoff_seconds = 0.01;
  options.concurrency = 3;
  options.api_key_variable = "CLAIMRAG_TEST_SERVED_KEY";
  return options;
}

/// Echoes {"n": n} as {"twice": 2n}.
void doubler(const httplib::Request& request, httplib::Response& response) {
  const auto body = nlohmann::json::parse(request.body);
  response.set_content(nlohmann::json{{"twice", 2 * body["n"].get<int>()}}.dump(), "application/json");
}

std::string accept_twice(const nlohmann::json& body) { return body.contains("twice") ? "" : "no \"twice\""; }

std::vector<cs::JsonRequest> numbers(int count) {
  std::vector<cs::JsonRequest> requests;
  for (int n = 0; n < count; ++n) requests.push_back({"/double", {{"n", n}}});
  return requests;
}

}  // namespace

TEST(ServedTransport, RepliesComeBackInRequestOrderUnderConcurrency) {
  FakeHttpServer server("/api/double", doubler);
  cs::HttpTransport transport(endpoint_of(server));
  EXPECT_EQ(transport.url(), server.url("/api"));
  const auto replies = transport.exchange(numbers(20), accept_twice);
  ASSERT_EQ(replies.size(), 20U);
  for (int n = 0; n < 20; ++n) {
    ASSERT_TRUE(replies[n].ok()) << replies[n].failure;
    EXPECT_EQ(replies[n].body["twice"], 2 * n);
    EXPECT_EQ(replies[n].status, 200);
  }
}

TEST(ServedTransport, ServerErrorsAreRetriedAndClientErrorsAreNot) {
  std::atomic<int> calls{0};
  FakeHttpServer busy("/api/double", [&](const httplib::Request& request, httplib::Response& response) {
    if (calls++ < 2) {
      response.status = 503;
      return;
    }
    doubler(request, response);
  });
  cs::HttpTransport transport(endpoint_of(busy));
  const auto replies = transport.exchange(numbers(1), accept_twice);
  EXPECT_TRUE(replies[0].ok());
  EXPECT_EQ(calls.load(), 3);  // two 503s, then the answer

  std::atomic<int> refused{0};
  FakeHttpServer strict("/api/double", [&](const httplib::Request&, httplib::Response& response) {
    ++refused;
    response.status = 422;
    response.set_content("{\"error\": \"response_format\nis not supported\"}", "application/json");
  });
  cs::HttpTransport second(endpoint_of(strict));
  const auto failed = second.exchange(numbers(1), accept_twice);
  EXPECT_EQ(refused.load(), 1);  // the same request would be refused again
  EXPECT_EQ(failed[0].status, 422);
  EXPECT_EQ(failed[0].failure, "HTTP status 422: {\"error\": \"response_format is not supported\"}");
  EXPECT_TRUE(failed[0].body.is_null());
}

TEST(ServedTransport, ABodyTheCheckRefusesIsFailedWithoutRetrying) {
  std::atomic<int> calls{0};
  FakeHttpServer server("/api/double", [&](const httplib::Request&, httplib::Response& response) {
    ++calls;
    response.set_content("{\"other\": 1}", "application/json");
  });
  cs::HttpTransport transport(endpoint_of(server));
  const auto replies = transport.exchange(numbers(1), accept_twice);
  EXPECT_EQ(calls.load(), 1);  // the same request would get the same kind of answer
  EXPECT_EQ(replies[0].failure, "no \"twice\"");
  EXPECT_EQ(replies[0].status, 200);
}

TEST(ServedTransport, TheKeyTravelsInTheHeaderOnly) {
  std::string authorization;
  std::mutex mutex;
  FakeHttpServer server("/api/double", [&](const httplib::Request& request, httplib::Response& response) {
    std::lock_guard lock(mutex);
    authorization = request.get_header_value("Authorization");
    doubler(request, response);
  });
  claimrag::testing::TempFolder folder;
  ::setenv("CLAIMRAG_TEST_SERVED_KEY", "sk-secret-123", 1);
  cs::ServedOptions options{endpoint_of(server), folder.path() / "rec.jsonl", {}};
  {
    auto transport = cs::open_transport(options);
    (void)transport->exchange(numbers(2), accept_twice);
  }
  ::unsetenv("CLAIMRAG_TEST_SERVED_KEY");
  EXPECT_EQ(authorization, "Bearer sk-secret-123");
  const std::string recording = claimrag::io::read_file(folder.path() / "rec.jsonl");
  EXPECT_EQ(recording.find("sk-secret"), std::string::npos);
  EXPECT_NE(recording.find("\"twice\":2"), std::string::npos);
}

TEST(ServedRecording, ReplayGivesTheRecordedRepliesAndFailuresOffline) {
  claimrag::testing::TempFolder folder;
  const auto file = folder.path() / "rec.jsonl";
  std::string url;
  {
    FakeHttpServer server("/api/double", [&](const httplib::Request& request, httplib::Response& response) {
      if (nlohmann::json::parse(request.body)["n"] == 1) {
        response.status = 500;
        return;
      }
      doubler(request, response);
    });
    url = server.url("/api");
    cs::ServedOptions options{endpoint_of(server), file, {}};
    auto transport = cs::open_transport(options);
    auto asked = numbers(3);
    asked.push_back(asked[0]);  // asked twice, recorded once
    const auto live = transport->exchange(asked, accept_twice);
    EXPECT_FALSE(live[1].ok());
  }  // the server is gone: the replay must not need it
  std::size_t lines = 0;
  for (char c : claimrag::io::read_file(file)) lines += c == '\n' ? 1 : 0;
  EXPECT_EQ(lines, 3U);

  cs::ReplayTransport replay(file, url + "/");
  const auto replies = replay.exchange(numbers(3), accept_twice);
  EXPECT_EQ(replies[0].body["twice"], 0);
  EXPECT_EQ(replies[2].body["twice"], 4);
  EXPECT_FALSE(replies[1].ok());
  EXPECT_EQ(replies[1].status, 500);
  EXPECT_EQ(replies[1].failure.rfind("HTTP status 500", 0), 0U);
  EXPECT_EQ(replay.unused(), 0U);

  // A reply the caller's check refuses now is a failure now.
  const auto refused = replay.exchange(numbers(1), [](const nlohmann::json&) { return std::string("changed rules"); });
  EXPECT_EQ(refused[0].failure, "changed rules");

  // Another parameter is another request: the recording lacks it.
  const std::vector<cs::JsonRequest> other{{"/double", {{"n", 7}}}};
  EXPECT_THROW((void)replay.exchange(other, accept_twice), claimrag::DataError);
  // So is the same body sent to another endpoint.
  cs::ReplayTransport elsewhere(file, "http://127.0.0.1:1/api");
  EXPECT_THROW((void)elsewhere.exchange(numbers(1), accept_twice), claimrag::DataError);
}

TEST(ServedRecording, AnEditedOrMalformedRecordingIsRefusedWithItsLine) {
  claimrag::testing::TempFolder folder;
  const auto file = folder.path() / "rec.jsonl";
  const cs::JsonRequest request{"/double", {{"n", 1}}};
  const std::string key = cs::exchange_key("http://h/api", request);
  const auto line = [&](const std::string& k, const std::string& tail) {
    return "{\"key\":\"" + k + "\",\"url\":\"http://h/api\",\"path\":\"/double\",\"request\":{\"n\":1}," + tail + "}\n";
  };
  const auto refused_at = [&](const std::string& contents, const std::string& expected) {
    claimrag::io::write_file_atomically(file, contents);
    try {
      cs::ReplayTransport replay(file, "http://h/api");
      ADD_FAILURE() << "accepted: " << contents;
    } catch (const claimrag::DataError& error) {
      EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
    }
  };
  refused_at(line("0123456789abcdef", "\"reply\":{\"twice\":2}"), "rec.jsonl:1");
  refused_at(line(key, "\"reply\":{\"twice\":2}") + line(key, "\"reply\":{\"twice\":3}"), "rec.jsonl:2");
  refused_at(line(key, "\"reply\":{},\"failed\":\"x\""), "either");
  refused_at(line(key, "\"failed\":\"\""), "must say why");
  refused_at(line(key, "\"reply\":{},\"api_key\":\"x\""), "api_key");
  claimrag::io::write_file_atomically(file, line(key, "\"reply\":{\"twice\":2}"));
  cs::ReplayTransport replay(file, "http://h/api/");
  EXPECT_EQ(replay.exchange(std::vector{request}, accept_twice)[0].body["twice"], 2);
}

TEST(ServedRecording, KeysDependOnEveryPartOfTheRequestAndNotOnKeyOrder) {
  const cs::JsonRequest a{"/p", nlohmann::json::parse(R"({"model":"m","temperature":0.0,"x":[1,2]})")};
  const cs::JsonRequest same{"/p", nlohmann::json::parse(R"({"x":[1,2],"temperature":0.0,"model":"m"})")};
  EXPECT_EQ(cs::exchange_key("http://h/v1", a), cs::exchange_key("http://h/v1/", same));
  EXPECT_NE(cs::exchange_key("http://h/v1", a), cs::exchange_key("http://h/v2", a));
  EXPECT_NE(cs::exchange_key("http://h/v1", a), cs::exchange_key("http://h/v1", cs::JsonRequest{"/q", a.body}));
  cs::JsonRequest warmer = a;
  warmer.body["temperature"] = 0.5;
  EXPECT_NE(cs::exchange_key("http://h/v1", a), cs::exchange_key("http://h/v1", warmer));
}

TEST(ServedOptions, EndpointRulesAndDefaultRecordingPath) {
  cs::EndpointOptions options;
  for (const std::string url : {"ftp://h", "http://", "127.0.0.1:8080", "http:///v1"}) {
    options.url = url;
    EXPECT_THROW(cs::check_endpoint_options(options), claimrag::UsageError) << url;
  }
  options.url = "https://api.example.org/v1";
  EXPECT_NO_THROW(cs::check_endpoint_options(options));
  options.concurrency = 0;
  EXPECT_THROW(cs::check_endpoint_options(options), claimrag::UsageError);
  EXPECT_EQ(cs::default_recording_path("out/verdicts.jsonl"), std::filesystem::path("out/verdicts.recording.jsonl"));
  EXPECT_EQ(cs::default_recording_path("verdicts"), std::filesystem::path("verdicts.recording.jsonl"));
  EXPECT_FALSE(cs::status_is_retryable(400));
  EXPECT_TRUE(cs::status_is_retryable(429));
  EXPECT_TRUE(cs::status_is_retryable(503));
}

TEST(ServedRecording, TwoEndpointsRecordingToOneFileKeepBothAndReplayFromIt) {
  claimrag::testing::TempFolder folder;
  const auto file = folder.path() / "rec.jsonl";
  std::string first_url, second_url;
  {
    FakeHttpServer first("/api/double", doubler);
    FakeHttpServer second("/api/double", [](const httplib::Request&, httplib::Response& response) {
      response.set_content("{\"twice\": -1}", "application/json");
    });
    first_url = first.url("/api");
    second_url = second.url("/api");
    auto to_first = cs::open_transport({endpoint_of(first), file, {}});
    auto to_second = cs::open_transport({endpoint_of(second), file, {}});
    (void)to_first->exchange(numbers(2), accept_twice);
    (void)to_second->exchange(numbers(2), accept_twice);
    (void)to_first->exchange(numbers(3), accept_twice);  // one new exchange
  }
  std::size_t lines = 0;
  for (char c : claimrag::io::read_file(file)) lines += c == '\n' ? 1 : 0;
  EXPECT_EQ(lines, 5U);
  cs::ReplayTransport first_replay(file, first_url);
  cs::ReplayTransport second_replay(file, second_url);
  EXPECT_EQ(first_replay.exchange(numbers(3), accept_twice)[2].body["twice"], 4);
  EXPECT_EQ(second_replay.exchange(numbers(2), accept_twice)[1].body["twice"], -1);
}

TEST(ServedRecording, ExchangesAreAppendedToTheFileNotRewritten) {
  claimrag::testing::TempFolder folder;
  const auto file = folder.path() / "rec.jsonl";
  FakeHttpServer server("/api/double", doubler);
  auto transport = cs::open_transport({endpoint_of(server), file, {}});
  (void)transport->exchange(numbers(2), accept_twice);
  const auto first = claimrag::io::read_file(file);
  const auto inode = std::filesystem::status(file).type() == std::filesystem::file_type::regular;
  struct stat before {};
  ASSERT_EQ(::stat(file.c_str(), &before), 0);
  (void)transport->exchange(numbers(4), accept_twice);
  struct stat after {};
  ASSERT_EQ(::stat(file.c_str(), &after), 0);
  EXPECT_TRUE(inode);
  EXPECT_EQ(before.st_ino, after.st_ino);  // the same file grew: nothing was written twice
  const auto second = claimrag::io::read_file(file);
  EXPECT_EQ(second.substr(0, first.size()), first);
  EXPECT_EQ(std::count(second.begin(), second.end(), '\n'), 4);
}

namespace {

/// Answers every request with a reply holding `bytes` bytes of text.
class LargeReplies final : public cs::Transport {
 public:
  explicit LargeReplies(std::size_t bytes) : bytes_(bytes) {}
  std::vector<cs::JsonReply> exchange(std::span<const cs::JsonRequest> requests, const cs::ReplyCheck&) override {
    return std::vector<cs::JsonReply>(requests.size(), cs::JsonReply{{{"text", std::string(bytes_, 'x')}}, "", 200});
  }
  [[nodiscard]] const std::string& url() const override { return url_; }

 private:
  std::size_t bytes_;
  std::string url_ = "http://127.0.0.1:1/v1";
};

}  // namespace

TEST(ServedRecording, ARecordingNeverHoldsALineItsReplayRefuses) {
  claimrag::testing::TempFolder folder;
  const auto file = folder.path() / "rec.jsonl";
  const std::size_t cap = 1 << 20;
  const std::size_t limit = cs::recording_line_limit(cap);
  EXPECT_EQ(limit, claimrag::dataset::kMaxJsonLineBytes + 4 * cap);
  {
    // A line over the limit is recorded, and answered, as a failure; one under it as the reply.
    cs::RecordingTransport recording(std::make_unique<LargeReplies>(limit), file, cap);
    const auto too_long = recording.exchange(numbers(1), accept_twice);
    EXPECT_NE(too_long[0].failure.find("too long to record"), std::string::npos) << too_long[0].failure;
    cs::RecordingTransport fitting(std::make_unique<LargeReplies>(limit - 1000), folder.path() / "fits.jsonl", cap);
    EXPECT_TRUE(fitting.exchange(numbers(1), accept_twice)[0].ok());
  }
  cs::ReplayTransport replay(file, "http://127.0.0.1:1/v1", cap);
  EXPECT_NE(replay.exchange(numbers(1), accept_twice)[0].failure.find("too long to record"), std::string::npos);
  // The replay reads lines as long as the cap allows (over the 16 MiB of other JSON Lines inputs)...
  cs::ReplayTransport long_lines(folder.path() / "fits.jsonl", "http://127.0.0.1:1/v1", cap);
  EXPECT_TRUE(long_lines.exchange(numbers(1), [](const nlohmann::json&) { return std::string(); })[0].ok());
  // ...and a replay with a smaller cap names the limit.
  try {
    cs::ReplayTransport smaller(folder.path() / "fits.jsonl", "http://127.0.0.1:1/v1", 1);
    ADD_FAILURE() << "a line over the limit was read";
  } catch (const claimrag::DataError& error) {
    EXPECT_NE(std::string(error.what()).find("the limit of this file"), std::string::npos) << error.what();
  }
}
