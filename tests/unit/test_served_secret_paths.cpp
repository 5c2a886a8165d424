// What a server says reaches excerpts, failure reasons, recordings, logs and outputs only after
// the API key is gone from it, raw or JSON-escaped, and before any cut; excerpts of outside text
// are cut at a character boundary; a log line shows outside text's control characters escaped;
// a replayed reply is bounded as a live one is; TEI's replies are checked as the distributions
// and float32 vectors they must be.

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "../support/key_echo.hpp"
#include "../support/raw_http_server.hpp"
#include "../support/temp_folder.hpp"
#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/shown_text.hpp"
#include "claimrag/io/utf8.hpp"
#include "claimrag/served/http_transport.hpp"
#include "claimrag/served/recording.hpp"
#include "claimrag/served/secret_redaction.hpp"
#include "claimrag/served/served_options.hpp"
#include "claimrag/served/tei.hpp"
#include "claimrag/verification/llm_judge_verifier.hpp"

namespace {

namespace cs = claimrag::served;
namespace io = claimrag::io;
using claimrag::DataError;
using claimrag::testing::RawHttpServer;
using claimrag::testing::TempFolder;
using nlohmann::json;

constexpr const char* kSecretPathsKeyVariable = "CLAIMRAG_TEST_SECRET_PATHS_KEY";
const std::string kSecretPathsKey = "sk-proj-0123456789abcdefghijklmnopqrstuv";  // 40 characters

std::string secret_paths_reply(int status, const std::string& body) {
  return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

cs::EndpointOptions secret_paths_endpoint(const std::string& url) {
  return {.url = url, .api_key_variable = kSecretPathsKeyVariable, .timeout_seconds = 3.0, .deadline_seconds = 3.0,
          .max_reply_bytes = std::size_t{1} << 20, .retries = 0, .backoff_seconds = 0.01, .concurrency = 1};
}

bool holds_part_of_test_key(const std::string& text) { return claimrag::testing::holds_part_of_key(text, kSecretPathsKey); }

}  // namespace

TEST(SecretPaths, RedactionFindsTheKeyJsonEscapedWhollyOrInPart) {
  const cs::SecretRedaction redaction(kSecretPathsKey);
  EXPECT_EQ(redaction.text("a " + claimrag::testing::json_unicode_escaped(kSecretPathsKey) + " b"), "a [redacted API key] b");
  EXPECT_EQ(redaction.text("\"sk\\u002dproj-0123456789abcdefghijklmnopqrstuv\\/x\""), "\"[redacted API key]\\/x\"");
  EXPECT_EQ(redaction.text("no key \\u0073 here \\n"), "no key \\u0073 here \\n");
}

TEST(SecretPaths, AKeyAcrossTheExcerptCutIsRedactedFromTheFailureAndTheRecording) {
  ::setenv(kSecretPathsKeyVariable, kSecretPathsKey.c_str(), 1);
  for (const bool escaped : {false, true}) {
    // The key starts at byte 190 of the page: an excerpt of 200 bytes cut before redacting kept 10
    // of its characters, and an escaped echo was never recognised.
    const std::string page = std::string(190, '.') + (escaped ? claimrag::testing::json_unicode_escaped(kSecretPathsKey) : kSecretPathsKey) +
                             std::string(50, '.');
    RawHttpServer server([&](int socket, const std::string&) { RawHttpServer::send_all(socket, secret_paths_reply(401, page)); });
    TempFolder folder;
    {
      auto transport = cs::open_transport({secret_paths_endpoint(server.url()), folder.path() / "rec.jsonl", {}});
      const auto replies = transport->exchange(std::vector<cs::JsonRequest>{{"/ask", {{"n", 1}}}}, [](const json&) { return ""; });
      ASSERT_FALSE(replies[0].ok());
      EXPECT_FALSE(holds_part_of_test_key(replies[0].failure)) << replies[0].failure;
      EXPECT_NE(replies[0].failure.find("HTTP status 401"), std::string::npos) << replies[0].failure;
    }
    const std::string recording = io::read_file(folder.path() / "rec.jsonl");
    EXPECT_FALSE(holds_part_of_test_key(recording)) << recording;
  }
  ::unsetenv(kSecretPathsKeyVariable);
}

TEST(SecretPaths, AnExcerptOfAnAnswerInChineseIsCutAtACharacterBoundary) {
  std::string chinese;
  for (int i = 0; i < 40; ++i) chinese += "支持";  // 3 bytes each: 240 bytes, no boundary at 80
  EXPECT_EQ(io::utf8_prefix(chinese, 80).size(), 78U);
  EXPECT_EQ(io::utf8_prefix("abc", 80), "abc");
  const claimrag::verification::EvidenceDocument document{"d1", "", {"Mice were fed aspirin."}, 0, 0.0};
  const auto verdict = claimrag::verification::read_judge_answer("{\"label\": \"" + chinese + "\"}", "Aspirin works.", document,
                                                                 claimrag::experiment::judge_text_resolution());
  ASSERT_FALSE(verdict.failure.empty());
  EXPECT_FALSE(io::invalid_utf8_offset(verdict.failure).has_value()) << verdict.failure;
  EXPECT_NO_THROW((void)json(verdict.failure).dump());  // the writer of outputs would have thrown
}

TEST(SecretPaths, ALogLineShowsOutsideTextsControlCharactersEscaped) {
  EXPECT_EQ(io::shown_text("a\nb\r\x1b[31mc\t\x7f\xc2\x9b" "d 支持"), "a\\nb\\r\\u001b[31mc\\t\\u007f\\u009bd 支持");
  std::ostringstream text;
  const auto previous = spdlog::default_logger();
  spdlog::set_default_logger(std::make_shared<spdlog::logger>(
      "escaped", io::escaping_sink(std::make_shared<spdlog::sinks::ostream_sink_st>(text))));
  spdlog::set_pattern("%v");
  spdlog::warn("the server says: {}", "refused\n[00:00:00] info all good\x1b]0;title\x07");
  spdlog::set_default_logger(previous);
  spdlog::set_pattern("[%H:%M:%S] %^%l%$ %v");
  EXPECT_EQ(text.str(), "the server says: refused\\n[00:00:00] info all good\\u001b]0;title\\u0007\n");
}

TEST(SecretPaths, AReplayedReplyNestedDeeperThanALiveOneMayIsRefused) {
  TempFolder folder;
  const cs::JsonRequest request{"/ask", {{"n", 1}}};
  const std::string url = "http://127.0.0.1:9";
  const auto line = [&](std::size_t depth) {
    const std::string reply = std::string(depth, '[') + std::string(depth, ']');
    return "{\"key\":\"" + cs::exchange_key(url, request) + "\",\"url\":\"" + url + "\",\"path\":\"/ask\",\"request\":" +
           request.body.dump() + ",\"reply\":" + reply + "}\n";
  };
  const auto shallow = folder.write("shallow.jsonl", line(cs::kMaxReplyJsonDepth));
  EXPECT_NO_THROW(cs::ReplayTransport(shallow, url));
  const auto deep = folder.write("deep.jsonl", line(cs::kMaxReplyJsonDepth + 1));
  claimrag::testing::expect_error<DataError>([&] { cs::ReplayTransport(deep, url); },
                                             "deep.jsonl:1: \"reply\" nests deeper than 128 levels");
}

TEST(SecretPaths, TeiScoresMustBeADistributionAndEmbeddingsFloat32) {
  const std::string all_ones = cs::check_tei_predict_reply(
      json::parse(R"([[{"label": "entailment", "score": 1}, {"label": "neutral", "score": 1}, {"label": "contradiction", "score": 1}]])"), 1);
  EXPECT_NE(all_ones.find("sum to 3"), std::string::npos) << all_ones;
  EXPECT_EQ(cs::check_tei_predict_reply(
                json::parse(R"([[{"label": "entailment", "score": 0.7}, {"label": "neutral", "score": 0.2}, {"label": "contradiction", "score": 0.1004}]])"), 1),
            "");
  EXPECT_NE(cs::check_tei_predict_reply(json::parse(R"([[{"label": "a", "score": 0.7}, {"label": "b", "score": 0.302}]])"), 1), "");
  const std::string huge = cs::check_tei_embed_reply(json::parse("[[0.5, 1e300]]"), 1);
  EXPECT_NE(huge.find("beyond the range of float32"), std::string::npos) << huge;
  EXPECT_EQ(cs::check_tei_embed_reply(json::parse("[[0.5, 3.4e38]]"), 1), "");
}
