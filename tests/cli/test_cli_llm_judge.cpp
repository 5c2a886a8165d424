// `verify --pairs --verifier llm:URL` end to end against a fake chat server on 127.0.0.1 (an
// ephemeral port) run by the test: the verdicts, the recording beside them, an offline replay of
// that recording giving the same bytes, --max-failures, and an API key that never reaches a file.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "support/fake_http_server.hpp"
#include "support/run_binary.hpp"
#include "support/scoped_variable.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;
using claimrag::testing::json_lines;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;

namespace {

/// A judge by keyword: a claim with "cures" is CONTRADICTed by sentence 2, one with "broken" gets
/// an unreadable answer, one with "stray" is SUPPORTed citing sentences 1, 0 and 9, any other is
/// SUPPORTed by sentence 1. It keeps the last Authorization
/// header it saw.
class FakeJudge {
 public:
  FakeJudge()
      : server_(std::make_unique<claimrag::testing::FakeHttpServer>(
            "/v1/chat/completions", [this](const httplib::Request& request, httplib::Response& response) {
              ++calls;
              {
                const std::lock_guard lock(mutex_);
                authorization_ = request.get_header_value("Authorization");
              }
              const std::string prompt = nlohmann::json::parse(request.body)["messages"][0]["content"];
              const std::string claim = prompt.substr(0, prompt.find('\n', prompt.find("Claim:")));
              std::string content = R"({"label": "SUPPORT", "sentences": [1]})";
              if (claim.find("cures") != std::string::npos) content = R"({"label": "CONTRADICT", "sentences": [2]})";
              if (claim.find("broken") != std::string::npos) content = "I would rather talk about the weather.";
              if (claim.find("stray") != std::string::npos) content = R"({"label": "SUPPORT", "sentences": [1, 0, 9]})";
              const nlohmann::json body{
                  {"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}}}}}};
              response.set_content(body.dump(), "application/json");
            })),
        spec_("llm:" + server_->url("/v1")) {}
  /// Stops the server: nothing listens at the URL any more.
  void stop() { server_.reset(); }
  [[nodiscard]] const std::string& spec() const { return spec_; }
  [[nodiscard]] std::string authorization() {
    const std::lock_guard lock(mutex_);
    return authorization_;
  }
  std::atomic<int> calls{0};

 private:
  std::mutex mutex_;
  std::string authorization_;
  std::unique_ptr<claimrag::testing::FakeHttpServer> server_;  // after what its handler uses: stopped first
  std::string spec_;
};

const char* kPairs = R"({"id": "p1", "claim": "Aspirin lowers fever.", "evidence": "Aspirin lowered fever in 40 patients. It was well tolerated."}
{"id": "p2", "claim": "Aspirin cures cancer.", "evidence": "Aspirin was given to 12 patients. No tumour shrank."}
)";

using claimrag::testing::ScopedVariable;

}  // namespace

TEST(CliLlmJudge, VerdictsAreRecordedAndAReplayWithTheServerStoppedGivesTheSameBytes) {
  claimrag::testing::TempFolder folder;
  const auto pairs = folder.write("pairs.jsonl", kPairs);
  const fs::path out = folder.path() / "verdicts.jsonl";
  const fs::path recording = folder.path() / "judge.recording.jsonl";
  const char* key = "sk-test-0123456789abcdef";
  const ScopedVariable api_key("CLAIMRAG_API_KEY", key);
  FakeJudge judge;
  const std::string flags = " --verifier " + judge.spec() + " --llm-model fake-judge --retries 0 --timeout 5";
  const auto live = run_claimrag("verify --pairs " + pairs.string() + " --out " + out.string() + flags + " --record " +
                                     recording.string(),
                                 folder.path());
  ASSERT_EQ(live.exit_code, 0) << live.err;
  EXPECT_EQ(judge.calls.load(), 2);
  EXPECT_EQ(judge.authorization(), std::string("Bearer ") + key);  // the key was sent, in its header

  const auto lines = json_lines(out);
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0]["id"], "p1");
  EXPECT_EQ(lines[0]["label"], "SUPPORT");
  EXPECT_EQ(lines[0]["probabilities"]["SUPPORT"], 1.0);
  EXPECT_EQ(lines[0]["rationale"][0]["sentence"], 0);  // "sentences": [1] is the first sentence
  EXPECT_FALSE(lines[0].contains("failed"));
  EXPECT_EQ(lines[1]["label"], "CONTRADICT");
  EXPECT_EQ(lines[1]["rationale"][0]["sentence"], 1);
  EXPECT_NE(live.err.find("0 pairs not judged"), std::string::npos) << live.err;

  // The verifier's record beside the output: spec, model, the prompt's checksum, the temperature.
  const auto meta = nlohmann::json::parse(slurp(folder.path() / "verdicts.meta.json"));
  EXPECT_EQ(meta["verifier"]["spec"], judge.spec());
  EXPECT_EQ(meta["verifier"]["model"], "fake-judge");
  EXPECT_EQ(meta["verifier"]["temperature"], 0.0);
  EXPECT_EQ(meta["verifier"]["prompt"]["file"], "configs/prompts/verifier_judge.txt");
  EXPECT_EQ(meta["verifier"]["prompt"]["xxh64"].get<std::string>().size(), 16U);

  // The recording: one exchange a pair, and nowhere the key.
  const std::string recorded = slurp(recording);
  EXPECT_EQ(json_lines(recording).size(), 2U);
  EXPECT_EQ(recorded.find(key), std::string::npos);
  EXPECT_EQ(recorded.find("Bearer"), std::string::npos);

  judge.stop();
  const std::string first = slurp(out);
  fs::remove(out);
  const auto replay = run_claimrag("verify --pairs " + pairs.string() + " --out " + out.string() + flags + " --replay " +
                                       recording.string(),
                                   folder.path());
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_EQ(slurp(out), first);
  EXPECT_EQ(judge.calls.load(), 2);  // nothing was sent

  // A pair the recording lacks is an error naming the recording, not a guess.
  const auto more = folder.write("more.jsonl", std::string(kPairs) + R"({"id": "p3", "claim": "New claim.", "evidence": "New text."})" + "\n");
  const fs::path other = folder.path() / "other.jsonl";
  const auto gap = run_claimrag("verify --pairs " + more.string() + " --out " + other.string() + flags + " --replay " +
                                    recording.string(),
                                folder.path());
  EXPECT_EQ(gap.exit_code, 3) << gap.err;
  EXPECT_NE(gap.err.find(recording.filename().string()), std::string::npos) << gap.err;
  EXPECT_FALSE(fs::exists(other));
}

TEST(CliLlmJudge, CitationsOutsideTheSentencesAreDroppedAndCountedInTheRecord) {
  claimrag::testing::TempFolder folder;
  const auto pairs = folder.write("pairs.jsonl", R"({"id": "s", "claim": "Aspirin has stray effects.", "evidence": "Aspirin was given. Nothing else."}
)");
  const fs::path out = folder.path() / "verdicts.jsonl";
  FakeJudge judge;
  const auto run = run_claimrag("verify --pairs " + pairs.string() + " --out " + out.string() + " --verifier " + judge.spec() +
                                    " --llm-model fake-judge --retries 0 --timeout 5",
                                folder.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto lines = json_lines(out);
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_EQ(lines[0]["label"], "SUPPORT");
  EXPECT_FALSE(lines[0].contains("failed"));
  EXPECT_NE(run.err.find("2 cited sentence numbers outside"), std::string::npos) << run.err;
  const auto meta = nlohmann::json::parse(slurp(folder.path() / "verdicts.meta.json"));
  EXPECT_EQ(meta["verifier"]["dropped_citations"], 2);
}

TEST(CliLlmJudge, AnUnreadableAnswerBeyondMaxFailuresExitsThreeWithNothingWritten) {
  claimrag::testing::TempFolder folder;
  const auto pairs = folder.write(
      "pairs.jsonl", std::string(kPairs) + R"({"id": "p3", "claim": "The broken claim.", "evidence": "Some text."})" + "\n");
  const fs::path out = folder.path() / "verdicts.jsonl";
  FakeJudge judge;
  const std::string base = "verify --pairs " + pairs.string() + " --out " + out.string() + " --verifier " + judge.spec() +
                           " --llm-model fake-judge --retries 0";
  // 1 of 3 pairs unreadable: more than the default share 0.
  const auto refused = run_claimrag(base, folder.path());
  EXPECT_EQ(refused.exit_code, 3) << refused.err;
  EXPECT_NE(refused.err.find("1 of 3 pairs could not be judged, more than --max-failures"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(folder.path() / "verdicts.recording.jsonl"));
  EXPECT_FALSE(fs::exists(folder.path() / "verdicts.meta.json"));

  // Within --max-failures 0.5: written, the failure marked and counted, recorded beside --out by default.
  const auto allowed = run_claimrag(base + " --max-failures 0.5", folder.path());
  ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
  const auto lines = json_lines(out);
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(lines[2]["label"], "NOT_ENOUGH_INFO");
  EXPECT_EQ(lines[2]["probabilities"]["NOT_ENOUGH_INFO"], 1.0);
  EXPECT_NE(lines[2]["failed"].get<std::string>().find("no JSON object and no label"), std::string::npos) << lines[2];
  EXPECT_FALSE(lines[0].contains("failed"));
  EXPECT_NE(allowed.err.find("1 pairs not judged"), std::string::npos) << allowed.err;
  EXPECT_EQ(json_lines(folder.path() / "verdicts.recording.jsonl").size(), 3U);
}

TEST(CliLlmJudge, TheJudgeNeedsAModelNameAndAPromptWithBothSlots) {
  claimrag::testing::TempFolder folder;
  const auto pairs = folder.write("pairs.jsonl", kPairs);
  const fs::path out = folder.path() / "verdicts.jsonl";
  const std::string base = "verify --pairs " + pairs.string() + " --out " + out.string() + " --verifier llm:http://127.0.0.1:9/v1";
  const auto no_model = run_claimrag(base, folder.path());
  EXPECT_EQ(no_model.exit_code, 2);
  EXPECT_NE(no_model.err.find("--llm-model"), std::string::npos) << no_model.err;
  const auto prompt = folder.write("prompt.txt", "Judge {claim} please.");
  const auto no_slot = run_claimrag(base + " --llm-model m --prompt " + prompt.string(), folder.path());
  EXPECT_EQ(no_slot.exit_code, 2);
  EXPECT_NE(no_slot.err.find("{evidence}"), std::string::npos) << no_slot.err;
  const auto stray = run_claimrag("verify --pairs " + pairs.string() + " --out " + out.string() + " --llm-model m", folder.path());
  EXPECT_EQ(stray.exit_code, 2);
  EXPECT_FALSE(fs::exists(out));
}

// ground and sufficiency reach the judge through the same flags: a passage it cannot judge is
// listed as failed on its claim or example, and a replay of the recording writes the same bytes.
TEST(CliLlmJudge, GroundAndSufficiencyMarkUnjudgedPassagesAndReplayToTheSameBytes) {
  claimrag::testing::TempFolder folder;
  const auto answers = folder.write(
      "answers.jsonl",
      R"({"id": "a1", "answer": "Aspirin lowers fever. The broken claim holds.", "context": [{"id": "d1", "text": "Aspirin lowered fever in 40 patients. It was well tolerated."}]})"
      "\n");
  const auto examples = folder.write(
      "examples.jsonl",
      R"({"id": "e1", "claim": "Aspirin lowers fever.", "evidence": ["Aspirin lowered fever in 40 patients."]})" "\n"
      R"({"id": "e2", "claim": "The broken claim.", "evidence": ["Some text.", "Other text."]})" "\n");
  FakeJudge judge;
  const std::string flags = " --verifier " + judge.spec() + " --llm-model fake-judge --retries 0 --max-failures 0.7";
  const fs::path grounded = folder.path() / "grounded.jsonl";
  const fs::path decided = folder.path() / "decided.jsonl";
  const std::string ground = "ground --answers " + answers.string() + " --out " + grounded.string() + flags;
  const std::string sufficiency = "sufficiency --examples " + examples.string() + " --aggregator " + CLAIMRAG_SOURCE_DIR +
                                  "/data/fixtures/sufficiency/aggregator.json --out " + decided.string() + flags;
  const auto grounded_live = run_claimrag(ground, folder.path());
  ASSERT_EQ(grounded_live.exit_code, 0) << grounded_live.err;
  const auto sufficiency_live = run_claimrag(sufficiency, folder.path());
  ASSERT_EQ(sufficiency_live.exit_code, 0) << sufficiency_live.err;
  EXPECT_EQ(judge.calls.load(), 2 + 3);

  const auto line = json_lines(grounded).front();
  EXPECT_EQ(line["claims"][0]["label"], "supported");
  EXPECT_FALSE(line["claims"][0].contains("failed"));
  EXPECT_EQ(line["claims"][1]["label"], "irrelevant");
  EXPECT_NE(line["claims"][1]["failed"]["d1"].get<std::string>().find("no JSON object and no label"), std::string::npos) << line;
  EXPECT_NE(grounded_live.err.find("1 passages not judged"), std::string::npos) << grounded_live.err;
  const auto decisions = json_lines(decided);
  ASSERT_EQ(decisions.size(), 2U);
  EXPECT_FALSE(decisions[0].contains("failed"));
  ASSERT_EQ(decisions[1]["failed"].size(), 2U);
  EXPECT_EQ(decisions[1]["failed"][1]["passage"], 1);

  judge.stop();
  const std::string ground_bytes = slurp(grounded), sufficiency_bytes = slurp(decided);
  fs::remove(grounded);
  fs::remove(decided);
  const auto grounded_again =
      run_claimrag(ground + " --replay " + (folder.path() / "grounded.recording.jsonl").string(), folder.path());
  ASSERT_EQ(grounded_again.exit_code, 0) << grounded_again.err;
  EXPECT_EQ(slurp(grounded), ground_bytes);
  const auto sufficiency_again =
      run_claimrag(sufficiency + " --replay " + (folder.path() / "decided.recording.jsonl").string(), folder.path());
  ASSERT_EQ(sufficiency_again.exit_code, 0) << sufficiency_again.err;
  EXPECT_EQ(slurp(decided), sufficiency_bytes);
}

// interrogate's built-in responder asks the judge with interrogate's own http flags (--llm-model,
// --retries, ...): its exchanges are recorded beside --out, and a pair the judge cannot judge is
// a failed answer held to interrogate's --max-failures, not a Neutral one.
TEST(CliLlmJudge, InterrogatesBuiltinResponderAsksTheJudgeWithItsOwnFlags) {
  claimrag::testing::TempFolder folder;
  const auto pairs = folder.write(
      "pairs.jsonl",
      R"({"id": "p1", "claim": "Aspirin lowers fever.", "evidence": "Aspirin lowered fever in 40 patients."})" "\n"
      R"({"id": "p2", "claim": "The broken claim holds.", "evidence": "Some text."})" "\n");
  const fs::path out = folder.path() / "interrogated.jsonl";
  FakeJudge judge;
  const std::string base = "interrogate --pairs " + pairs.string() + " --responder builtin --samples 2 --out " + out.string() +
                           " --verifier " + judge.spec() + " --llm-model fake-judge --retries 0";
  const auto refused = run_claimrag(base, folder.path());
  EXPECT_EQ(refused.exit_code, 3) << refused.err;
  EXPECT_NE(refused.err.find("could not be obtained"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(folder.path() / "interrogated.recording.jsonl"));

  const auto allowed = run_claimrag(base + " --max-failures 0.6", folder.path());
  ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_EQ(json_lines(out).size(), 2U);
  // p1's claim and its negation, p2's claim (its negation, when a rule makes one, is judged too).
  EXPECT_GE(json_lines(folder.path() / "interrogated.recording.jsonl").size(), 3U);
  EXPECT_EQ(nlohmann::json::parse(slurp(folder.path() / "interrogated.meta.json"))["verifier"]["model"], "fake-judge");
}
