// `sufficiency --judge llm:URL` end to end against a chat server in the test process: decisions
// and their evaluation, recorded then replayed offline to the same bytes, and failures beyond
// --max-failures refused with nothing written.

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/chat_completion.hpp"
#include "support/fake_http_server.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::completion;
using claimrag::testing::FakeHttpServer;
using claimrag::testing::json_lines;
using claimrag::testing::prompt_of;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

namespace {

// Gold S, R, I, I; the scripted judge says S, R, (not asked: no evidence) I, S.
const char* kExamples =
    "{\"id\": \"e1\", \"claim\": \"Aspirin lowers risk.\", \"evidence\": [\"Aspirin lowers risk in adults.\"], \"label\": \"Supported\"}\n"
    "{\"id\": \"e2\", \"claim\": \"Coffee causes cancer.\", \"evidence\": [\"Coffee does not cause cancer.\"], \"label\": \"Refuted\"}\n"
    "{\"id\": \"e3\", \"claim\": \"Salt raises blood pressure.\", \"evidence\": [], \"label\": \"Insufficient\"}\n"
    "{\"id\": \"e4\", \"claim\": \"Tea prevents colds.\", \"evidence\": [\"Tea is popular.\"], \"label\": \"Insufficient\"}\n";

/// The scripted judge; `fail_coffee`: the coffee example's request gets status 500.
httplib::Server::Handler judge(std::atomic<int>& calls, bool fail_coffee) {
  return [&calls, fail_coffee](const httplib::Request& request, httplib::Response& response) {
    ++calls;
    const std::string prompt = prompt_of(request);
    if (prompt.find("Claim: Coffee") != std::string::npos) {
      if (fail_coffee) {
        response.status = 500;
        response.set_content("{\"error\": \"overloaded\"}", "application/json");
        return;
      }
      response.set_content(completion("```json\n{\"label\": \"Refuted\"}\n```"), "application/json");
      return;
    }
    response.set_content(completion("{\"label\": \"Supported\"}"), "application/json");
  };
}

std::string judge_flags(const std::string& url) { return " --judge llm:" + url + " --llm-model stand-in --retries 0 --timeout 5"; }

}  // namespace

TEST(CliJudge, DecidesEvaluatesAndReplaysOfflineToTheSameBytes) {
  TempFolder folder;
  const auto examples = folder.write("examples.jsonl", kExamples);
  const auto out = folder.path() / "decisions.jsonl";
  const auto evaluation = folder.path() / "evaluation.json";
  std::atomic<int> calls{0};
  {
    FakeHttpServer server("/v1/chat/completions", judge(calls, false));
    const auto outcome = run_claimrag("sufficiency --examples " + examples.string() + judge_flags(server.url("/v1")) +
                                          " --out " + out.string() + " --evaluation " + evaluation.string(),
                                      folder.path());
    ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  }
  EXPECT_EQ(calls.load(), 3);  // e3 has no evidence: not sent
  const auto lines = json_lines(out);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0]["label"], "Supported");
  EXPECT_EQ(lines[0]["decision"], "answer");
  EXPECT_EQ(lines[1]["label"], "Refuted");
  EXPECT_EQ(lines[2]["label"], "Insufficient");
  EXPECT_EQ(lines[2]["reason"], "no evidence");
  EXPECT_EQ(lines[3]["label"], "Supported");
  // By hand: F1 Supported = 2·1/(2·1+1+0) = 2/3, Refuted 1, Insufficient = 2·1/(2·1+0+1) = 2/3.
  const auto report = nlohmann::json::parse(slurp(evaluation));
  EXPECT_EQ(report["system"], "llm_judge");
  EXPECT_EQ(report["failures"], 0);
  EXPECT_EQ(report["evaluated"], 4);
  EXPECT_NEAR(report["numbers"]["macro_f1"].get<double>(), 7.0 / 9.0, 1e-12);
  EXPECT_NEAR(report["numbers"]["f1_refuted"].get<double>(), 1.0, 1e-12);
  // The recording sits beside --out; it holds the three exchanges and no key.
  const auto recording = folder.path() / "decisions.recording.jsonl";
  ASSERT_TRUE(std::filesystem::exists(recording));
  EXPECT_EQ(json_lines(recording).size(), 3u);

  // Offline: the server is gone; the replay gives the same bytes.
  const auto replayed = folder.path() / "replayed.jsonl";
  const auto replayed_evaluation = folder.path() / "replayed_evaluation.json";
  const auto replay = run_claimrag("sufficiency --examples " + examples.string() + judge_flags("http://127.0.0.1:9/v1") +
                                       " --out " + replayed.string() + " --evaluation " + replayed_evaluation.string() +
                                       " --replay " + recording.string(),
                                   folder.path());
  // The endpoint named is part of each request's key: replaying needs the recorded one.
  EXPECT_EQ(replay.exit_code, 3) << replay.err;
  EXPECT_FALSE(std::filesystem::exists(replayed));
}

TEST(CliJudge, ReplayGivesTheRecordedBytesAndRefusesAnotherModel) {
  TempFolder folder;
  const auto examples = folder.write("examples.jsonl", kExamples);
  const auto out = folder.path() / "decisions.jsonl";
  const auto recording = folder.path() / "judge.recording.jsonl";
  std::atomic<int> calls{0};
  std::string url;
  {
    FakeHttpServer server("/v1/chat/completions", judge(calls, false));
    url = server.url("/v1");
    ASSERT_EQ(run_claimrag("sufficiency --examples " + examples.string() + judge_flags(url) + " --out " + out.string() +
                               " --record " + recording.string(),
                           folder.path())
                  .exit_code,
              0);
  }
  const auto replayed = folder.path() / "replayed.jsonl";
  const auto replay = run_claimrag("sufficiency --examples " + examples.string() + judge_flags(url) + " --out " + replayed.string() +
                                       " --replay " + recording.string(),
                                   folder.path());
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_EQ(slurp(replayed), slurp(out));
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "replayed.recording.jsonl"));  // a replay records nothing
  // Another model name is another request: the recording lacks it.
  const auto other = folder.path() / "other.jsonl";
  const auto refused = run_claimrag("sufficiency --examples " + examples.string() + " --judge llm:" + url +
                                        " --llm-model another --out " + other.string() + " --replay " + recording.string(),
                                    folder.path());
  EXPECT_EQ(refused.exit_code, 3);
  EXPECT_FALSE(std::filesystem::exists(other));
}

TEST(CliJudge, AFailureBeyondMaxFailuresWritesNothingAndWithinItIsWrittenAsFailed) {
  TempFolder folder;
  const auto examples = folder.write("examples.jsonl", kExamples);
  const auto out = folder.path() / "decisions.jsonl";
  const auto evaluation = folder.path() / "evaluation.json";
  std::atomic<int> calls{0};
  FakeHttpServer server("/v1/chat/completions", judge(calls, true));
  const std::string command = "sufficiency --examples " + examples.string() + judge_flags(server.url("/v1")) + " --out " +
                              out.string() + " --evaluation " + evaluation.string();
  const auto refused = run_claimrag(command, folder.path());
  EXPECT_EQ(refused.exit_code, 3);
  EXPECT_NE(refused.err.find("1 of 3 judge requests failed"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("e2"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(evaluation));
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "decisions.recording.jsonl"));

  // One failure in three requests is within a share of 0.5.
  const auto allowed = run_claimrag(command + " --max-failures 0.5", folder.path());
  ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
  const auto lines = json_lines(out);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_TRUE(lines[1]["label"].is_null());
  EXPECT_EQ(lines[1]["decision"], "abstain");
  EXPECT_NE(lines[1]["failure"].get<std::string>().find("500"), std::string::npos);
  const auto report = nlohmann::json::parse(slurp(evaluation));
  EXPECT_EQ(report["failures"], 1);
  EXPECT_EQ(report["evaluated"], 3);
  // Failed requests are recorded as failures.
  bool failure_recorded = false;
  for (const auto& line : json_lines(folder.path() / "decisions.recording.jsonl")) failure_recorded |= line.contains("failed");
  EXPECT_TRUE(failure_recorded);
}

TEST(CliJudge, RefusesAJudgeWithAnAggregatorOrWithoutAModel) {
  TempFolder folder;
  const auto examples = folder.write("examples.jsonl", kExamples);
  const auto out = folder.path() / "out.jsonl";
  EXPECT_EQ(run_claimrag("sufficiency --examples " + examples.string() + " --judge llm:http://127.0.0.1:9/v1 --llm-model m --aggregator " +
                             "data/fixtures/sufficiency/aggregator.json --out " + out.string(),
                         folder.path())
                .exit_code,
            2);
  EXPECT_EQ(run_claimrag("sufficiency --examples " + examples.string() + " --judge llm:http://127.0.0.1:9/v1 --out " + out.string(),
                         folder.path())
                .exit_code,
            2);
  EXPECT_EQ(run_claimrag("sufficiency --examples " + examples.string() + " --judge tei:http://127.0.0.1:9 --llm-model m --out " +
                             out.string(),
                         folder.path())
                .exit_code,
            2);
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliJudge, AServerWithoutJsonSchemaSupportIsAskedAgainWithoutIt) {
  TempFolder folder;
  const auto examples = folder.write("examples.jsonl", kExamples);
  const auto out = folder.path() / "decisions.jsonl";
  std::atomic<int> with_schema{0}, without_schema{0};
  FakeHttpServer server("/v1/chat/completions", [&](const httplib::Request& request, httplib::Response& response) {
    if (nlohmann::json::parse(request.body).contains("response_format")) {
      ++with_schema;
      response.status = 400;
      response.set_content("{\"error\": \"response_format is not supported\"}", "application/json");
      return;
    }
    ++without_schema;
    response.set_content(completion("{\"label\": \"Insufficient\"}"), "application/json");
  });
  const auto outcome = run_claimrag("sufficiency --examples " + examples.string() + judge_flags(server.url("/v1")) + " --out " + out.string(),
                                    folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(with_schema.load(), 3);
  EXPECT_EQ(without_schema.load(), 3);
  for (const auto& line : json_lines(out)) EXPECT_EQ(line["label"], "Insufficient");
}

TEST(CliJudge, ARefusalIsAFailureNotInsufficient) {
  TempFolder folder;
  const auto examples = folder.write("examples.jsonl", kExamples);
  const auto out = folder.path() / "decisions.jsonl";
  FakeHttpServer server("/v1/chat/completions", [](const httplib::Request&, httplib::Response& response) {
    response.set_content(
        nlohmann::json{{"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", nullptr}, {"refusal", "I can't help with that."}}}}}}}
            .dump(),
        "application/json");
  });
  const std::string command = "sufficiency --examples " + examples.string() + judge_flags(server.url("/v1")) + " --out " + out.string();
  EXPECT_EQ(run_claimrag(command, folder.path()).exit_code, 3);
  EXPECT_FALSE(std::filesystem::exists(out));
  ASSERT_EQ(run_claimrag(command + " --max-failures 1", folder.path()).exit_code, 0);
  const auto lines = json_lines(out);
  ASSERT_EQ(lines.size(), 4u);
  for (const std::size_t i : {0u, 1u, 3u}) {
    EXPECT_TRUE(lines[i]["label"].is_null());
    EXPECT_NE(lines[i]["failure"].get<std::string>().find("refused"), std::string::npos) << lines[i]["failure"];
  }
  EXPECT_EQ(lines[2]["label"], "Insufficient");  // no evidence: not asked
}
