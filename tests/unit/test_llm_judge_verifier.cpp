// The LLM judge against a fake chat-completions server on 127.0.0.1 (an ephemeral port) started
// by each test: what it sends, how it reads answers, and that every answer it cannot read is a
// counted failure, never a silent NOT_ENOUGH_INFO.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/served/http_transport.hpp"
#include "claimrag/verification/llm_judge_verifier.hpp"
#include "claimrag/verification/verdict_failures.hpp"

// After the project's headers: included before Eigen's (through the factory's), httplib.h breaks their compilation.
#include "support/chat_completion.hpp"
#include "support/fake_http_server.hpp"

namespace cv = claimrag::verification;
namespace served = claimrag::served;
using cv::Label;

namespace {

/// The shared fake server, serving a chat API under /v1.
class FakeChatServer : public claimrag::testing::FakeHttpServer {
 public:
  explicit FakeChatServer(httplib::Server::Handler handler)
      : FakeHttpServer("/v1/chat/completions", std::move(handler)) {}
  [[nodiscard]] std::string endpoint() const { return url("/v1"); }
};

using claimrag::testing::completion;

/// A server answering every request with `content`, counting the calls.
httplib::Server::Handler answering(const std::string& content, std::atomic<int>& calls) {
  return [&calls, content](const httplib::Request&, httplib::Response& response) {
    ++calls;
    response.set_content(completion(content), "application/json");
  };
}

const char* kTemplate = "Claim: {claim}\nEvidence:\n{evidence}\nAnswer with JSON.";

served::EndpointOptions endpoint_for(const FakeChatServer& server) {
  served::EndpointOptions options;
  options.url = server.endpoint();
  options.timeout_seconds = 2.0;
  options.deadline_seconds = 5.0;
  options.retries = 1;
  options.backoff_seconds = 0.01;
  options.concurrency = 2;
  return options;
}

cv::LlmJudgeVerifier judge_for(const served::EndpointOptions& endpoint, cv::JudgeTextResolver resolve = {}) {
  return cv::LlmJudgeVerifier(std::make_unique<served::HttpTransport>(endpoint),
                              {.model = "fake-judge", .prompt_template = kTemplate, .temperature = 0.0, .resolve_text = std::move(resolve)});
}

/// One claim against one three-sentence document.
std::vector<cv::VerificationInput> one_pair() {
  cv::EvidenceDocument document{"d1", "", {"Mice were fed aspirin.", "Tumours shrank by half.", "No side effects were seen."}, 0, 0.0};
  return {{"c1", "Aspirin shrinks tumours in mice.", {document}}};
}

cv::DocumentVerdict judge_one(const FakeChatServer& server, cv::JudgeTextResolver resolve = {}) {
  const auto judge = judge_for(endpoint_for(server), std::move(resolve));
  const auto verdicts = judge.verify(one_pair());
  EXPECT_EQ(verdicts.size(), 1U);
  EXPECT_EQ(verdicts.front().documents.size(), 1U);
  return verdicts.front().documents.front();
}

void expect_failed(const cv::DocumentVerdict& verdict, const std::string& part_of_reason) {
  EXPECT_NE(verdict.failure.find(part_of_reason), std::string::npos) << verdict.failure;
  EXPECT_EQ(verdict.label, Label::not_enough_info);
  EXPECT_EQ(verdict.probabilities, (std::array<double, 3>{0.0, 0.0, 1.0}));
  EXPECT_TRUE(verdict.rationale.empty());
}

}  // namespace

TEST(LlmJudge, ACorrectJsonAnswerIsOneHotWithItsCitedSentences) {
  std::atomic<int> calls{0};
  FakeChatServer server(answering(R"({"label": "SUPPORT", "sentences": [2, 1, 2]})", calls));
  const auto verdict = judge_one(server);
  EXPECT_TRUE(verdict.failure.empty()) << verdict.failure;
  EXPECT_EQ(verdict.label, Label::support);
  EXPECT_EQ(verdict.probabilities, (std::array<double, 3>{1.0, 0.0, 0.0}));
  // Sentence numbers are 1-based in the prompt, indices 0-based in the verdict; the repeat of 2 is dropped.
  EXPECT_EQ(verdict.rationale, (std::vector<std::size_t>{1, 0}));
  ASSERT_EQ(verdict.sentence_scores.size(), 3U);
  EXPECT_EQ(verdict.sentence_scores[0].score, 1.0);
  EXPECT_EQ(verdict.sentence_scores[1].score, 1.0);
  EXPECT_EQ(verdict.sentence_scores[2].score, 0.0);
  EXPECT_FALSE(verdict.nei_threshold.has_value());
  EXPECT_EQ(calls.load(), 1);
}

TEST(LlmJudge, TheRequestIsNotStreamedAtTemperatureZeroWithTheSchemaAndNumberedEvidence) {
  std::mutex mutex;
  nlohmann::json seen;
  FakeChatServer server([&](const httplib::Request& request, httplib::Response& response) {
    {
      const std::lock_guard lock(mutex);
      seen = nlohmann::json::parse(request.body);
    }
    response.set_content(completion(R"({"label": "CONTRADICT", "sentences": [3]})"), "application/json");
  });
  const auto verdict = judge_one(server);
  EXPECT_EQ(verdict.label, Label::contradict);
  EXPECT_EQ(seen["model"], "fake-judge");
  EXPECT_EQ(seen["stream"], false);
  EXPECT_EQ(seen["temperature"], 0.0);
  EXPECT_EQ(seen["response_format"]["type"], "json_schema");
  EXPECT_EQ(seen["response_format"]["json_schema"]["schema"], cv::judge_answer_schema());
  EXPECT_EQ(seen["messages"][0]["content"],
            "Claim: Aspirin shrinks tumours in mice.\nEvidence:\n[1] Mice were fed aspirin.\n[2] Tumours shrank by half.\n"
            "[3] No side effects were seen.\nAnswer with JSON.");
}

TEST(LlmJudge, AServerRefusingTheSchemaIsAskedAgainWithoutItAndAPlainLabelIsRead) {
  std::atomic<int> with_schema{0}, without_schema{0};
  FakeChatServer server([&](const httplib::Request& request, httplib::Response& response) {
    if (nlohmann::json::parse(request.body).contains("response_format")) {
      ++with_schema;
      response.status = 400;
      response.set_content(R"({"error": "response_format is not supported"})", "application/json");
      return;
    }
    ++without_schema;
    response.set_content(completion("Answer: CONTRADICT"), "application/json");
  });
  const auto verdict = judge_one(server);
  EXPECT_TRUE(verdict.failure.empty()) << verdict.failure;
  EXPECT_EQ(verdict.label, Label::contradict);
  EXPECT_EQ(verdict.probabilities, (std::array<double, 3>{0.0, 1.0, 0.0}));
  EXPECT_TRUE(verdict.rationale.empty());  // a label read from text cites nothing
  EXPECT_EQ(with_schema.load(), 1);        // 400 is not retried
  EXPECT_EQ(without_schema.load(), 1);
}

TEST(LlmJudge, FreeTextWithoutALabelNameGoesToTheProjectsResolution) {
  std::atomic<int> calls{0};
  FakeChatServer refuting(answering("No. The claim is false given sentence two.", calls));
  EXPECT_EQ(judge_one(refuting, claimrag::experiment::judge_text_resolution()).label, Label::contradict);
  FakeChatServer hedging(answering("I am not sure; the abstract does not provide that.", calls));
  const auto hedge = judge_one(hedging, claimrag::experiment::judge_text_resolution());
  EXPECT_TRUE(hedge.failure.empty()) << hedge.failure;
  EXPECT_EQ(hedge.label, Label::not_enough_info);
  EXPECT_EQ(hedge.probabilities, (std::array<double, 3>{0.0, 0.0, 1.0}));
  FakeChatServer rambling(answering("Mice are small rodents.", calls));
  expect_failed(judge_one(rambling, claimrag::experiment::judge_text_resolution()), "no JSON object and no label");
  // Two label names decide nothing.
  FakeChatServer torn(answering("Either SUPPORT or CONTRADICT.", calls));
  expect_failed(judge_one(torn), "no JSON object and no label");
}

TEST(LlmJudge, MalformedJsonIsAFailure) {
  std::atomic<int> calls{0};
  FakeChatServer server(answering(R"({"label": "SUPPORT", "sentences": [1)", calls));
  expect_failed(judge_one(server), "JSON cannot be read");
}

TEST(LlmJudge, AReplyThatIsNotJsonAtAllIsAFailedExchange) {
  std::atomic<int> calls{0};
  FakeChatServer server([&](const httplib::Request&, httplib::Response& response) {
    ++calls;
    response.set_content("<html>bad gateway</html>", "text/html");
  });
  const auto verdict = judge_one(server);
  EXPECT_FALSE(verdict.failure.empty());
  EXPECT_EQ(verdict.probabilities, (std::array<double, 3>{0.0, 0.0, 1.0}));
  EXPECT_EQ(calls.load(), 2);  // the first attempt and one retry
}

TEST(LlmJudge, ARefusalIsAFailureNotAVerdict) {
  std::atomic<int> calls{0};
  FakeChatServer server([&](const httplib::Request&, httplib::Response& response) {
    ++calls;
    const nlohmann::json body{{"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", nullptr},
                                                                       {"refusal", "I cannot help with that."}}}}}}};
    response.set_content(body.dump(), "application/json");
  });
  expect_failed(judge_one(server), "refus");
}

TEST(LlmJudge, ALabelOutsideTheThreeIsAFailure) {
  std::atomic<int> calls{0};
  FakeChatServer server(answering(R"({"label": "PARTIALLY_SUPPORT", "sentences": [1]})", calls));
  expect_failed(judge_one(server), "none of SUPPORT, CONTRADICT, NOT_ENOUGH_INFO");
  FakeChatServer lower(answering(R"({"label": "support", "sentences": []})", calls));
  EXPECT_EQ(judge_one(lower).label, Label::support);  // letter case is not a different label
}

TEST(LlmJudge, CitationsOutsideTheNumberedSentencesAreDroppedAndCountedAndTheLabelStands) {
  std::atomic<int> calls{0};
  FakeChatServer server(answering(R"({"label": "CONTRADICT", "sentences": [0, 2, 99, "two", 1.5, 3]})", calls));
  std::size_t reported = 0;
  cv::LlmJudgeVerifier judge(std::make_unique<served::HttpTransport>(endpoint_for(server)),
                             {.model = "fake-judge",
                              .prompt_template = kTemplate,
                              .temperature = 0.0,
                              .resolve_text = {},
                              .report_dropped_citations = [&](std::size_t total) { reported = total; }});
  const auto verdict = judge.verify(one_pair()).front().documents.front();
  EXPECT_TRUE(verdict.failure.empty()) << verdict.failure;
  EXPECT_EQ(verdict.label, Label::contradict);
  EXPECT_EQ(verdict.rationale, (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(reported, 4U);  // 0, 99, "two" and 1.5
  (void)judge.verify(one_pair());
  EXPECT_EQ(reported, 8U);  // a running total
}

TEST(LlmJudge, AReplySlowerThanTheDeadlineIsAFailure) {
  FakeChatServer server([&](const httplib::Request&, httplib::Response& response) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    response.set_content(completion(R"({"label": "SUPPORT", "sentences": []})"), "application/json");
  });
  auto endpoint = endpoint_for(server);
  endpoint.deadline_seconds = 0.3;
  endpoint.timeout_seconds = 0.3;
  endpoint.retries = 0;
  const auto started = std::chrono::steady_clock::now();
  const auto verdicts = judge_for(endpoint).verify(one_pair());
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  expect_failed(verdicts.front().documents.front(), "");
  EXPECT_FALSE(verdicts.front().documents.front().failure.empty());
  EXPECT_LT(waited, 1.4);  // not the reply's 1.5 s: the attempt was ended at its deadline
}

TEST(LlmJudge, AServiceUnavailableIsRetriedAndTheSecondAnswerStands) {
  std::atomic<int> calls{0};
  FakeChatServer server([&](const httplib::Request&, httplib::Response& response) {
    if (calls++ == 0) {
      response.status = 503;
      response.set_content("loading model", "text/plain");
      return;
    }
    response.set_content(completion(R"({"label": "NOT_ENOUGH_INFO", "sentences": [1]})"), "application/json");
  });
  const auto verdict = judge_one(server);
  EXPECT_TRUE(verdict.failure.empty()) << verdict.failure;
  EXPECT_EQ(verdict.label, Label::not_enough_info);
  EXPECT_EQ(verdict.probabilities, (std::array<double, 3>{0.0, 0.0, 1.0}));
  EXPECT_TRUE(verdict.rationale.empty());  // NOT_ENOUGH_INFO cites nothing
  EXPECT_EQ(calls.load(), 2);
}

TEST(LlmJudge, FailuresAreCountedInInputOrderAndHeldToTheAllowedShare) {
  // Three pairs: the server reads the claim and answers the second with a label outside the three.
  FakeChatServer server([&](const httplib::Request& request, httplib::Response& response) {
    const std::string prompt = nlohmann::json::parse(request.body)["messages"][0]["content"];
    const bool bad = prompt.find("Claim: second") != std::string::npos;
    response.set_content(completion(bad ? R"({"label": "MAYBE"})" : R"({"label": "SUPPORT", "sentences": [1]})"),
                         "application/json");
  });
  const cv::EvidenceDocument document{"d", "", {"One sentence."}, 0, 0.0};
  const std::vector<cv::VerificationInput> inputs{{"a", "first", {document}}, {"b", "second", {document}}, {"c", "third", {document}}};
  const auto verdicts = judge_for(endpoint_for(server)).verify(inputs);
  ASSERT_EQ(verdicts.size(), 3U);
  const auto failures = cv::count_failures(verdicts);
  EXPECT_EQ(failures.failed, 1U);
  EXPECT_EQ(failures.judged, 3U);
  EXPECT_NE(failures.first_reason.find("MAYBE"), std::string::npos);
  EXPECT_EQ(verdicts[0].documents[0].label, Label::support);
  EXPECT_EQ(verdicts[2].documents[0].label, Label::support);
  // 1 of 3 is more than 0.3 × 3 = 0.9 and not more than 0.34 × 3 = 1.02.
  EXPECT_THROW(cv::enforce_max_failures(failures, 0.0, "llm:http://x"), claimrag::DataError);
  EXPECT_THROW(cv::enforce_max_failures(failures, 0.3, "llm:http://x"), claimrag::DataError);
  EXPECT_NO_THROW(cv::enforce_max_failures(failures, 0.34, "llm:http://x"));
}

TEST(LlmJudge, ThePromptFileNeedsBothSlotsAndAModelName) {
  std::atomic<int> calls{0};
  FakeChatServer server(answering("{}", calls));
  EXPECT_THROW(cv::LlmJudgeVerifier(std::make_unique<served::HttpTransport>(endpoint_for(server)),
                                    {.model = "", .prompt_template = kTemplate, .temperature = 0.0, .resolve_text = {}}),
               claimrag::UsageError);
  EXPECT_THROW(cv::LlmJudgeVerifier(std::make_unique<served::HttpTransport>(endpoint_for(server)),
                                    {.model = "m", .prompt_template = "Claim: {claim}", .temperature = 0.0, .resolve_text = {}}),
               claimrag::UsageError);
  EXPECT_THROW(judge_for(endpoint_for(server)).save("judge.safetensors"), claimrag::UsageError);
  EXPECT_EQ(calls.load(), 0);
}

TEST(LlmJudge, TheShippedPromptHasBothSlots) {
  const auto text = cv::load_judge_prompt(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "configs/prompts/verifier_judge.txt");
  EXPECT_NE(text.find("{claim}"), std::string::npos);
  EXPECT_NE(text.find("{evidence}"), std::string::npos);
  EXPECT_NE(text.find("NOT_ENOUGH_INFO"), std::string::npos);
}
