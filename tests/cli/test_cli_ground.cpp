// `claimrag ground` as a user runs it: one line per answer in input order, documented refusals,
// and bad input as an error naming file and line with nothing written. The verifier is trained
// once on SciFact (skipped without data/scifact); contexts come from the tiny BEIR fixture.

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

using claimrag::testing::run_claimrag;
using claimrag::testing::TempFolder;

using claimrag::testing::kTiny;
const std::string kFixture = "data/fixtures/grounding";
const std::string kSciFact = "data/scifact";

class CliGround : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!std::filesystem::exists(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / kSciFact / "original/claims_train.jsonl")) return;
    // Shared by the suite's tests (TempFolder needs a running test, so the folder is made here).
    folder_ = std::filesystem::temp_directory_path() / ("claimrag_CliGround_" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder_);
    model_ = (folder_ / "verifier.safetensors").string();
    ::setenv("XDG_CACHE_HOME", (folder_ / "cache").c_str(), 1);  // the built-in verifier's cache: never the user's
    const auto trained = run_claimrag("--quiet verify --pairs " + kFixture + "/pairs.jsonl --out " + folder_.string() +
                                          "/pairs.out --original " + kSciFact + "/original --save-model " + model_,
                                      folder_);
    if (trained.exit_code != 0) model_.clear();
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(folder_); }
  void SetUp() override {
    if (model_.empty()) GTEST_SKIP() << "data/scifact is missing (the verifier is trained on it)";
  }
  static inline std::filesystem::path folder_;
  static inline std::string model_;
};

std::vector<nlohmann::json> lines(const std::string& text) {
  std::vector<nlohmann::json> parsed;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) parsed.push_back(nlohmann::json::parse(line));
  return parsed;
}

TEST_F(CliGround, EveryAnswerGetsALineInInputOrderWithDocumentedRefusals) {
  TempFolder folder;
  const auto out = folder.path() / "grounded.jsonl";
  const auto outcome = run_claimrag("--quiet ground --data " + kTiny + " --answers " + kFixture + "/answers.jsonl --out " + out.string() +
                                        " --model " + model_ + " --threads 1",
                                    folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const auto grounded = lines(claimrag::testing::slurp(out));
  ASSERT_EQ(grounded.size(), 4u);
  EXPECT_EQ(grounded[0]["id"], "a1");
  ASSERT_EQ(grounded[0]["claims"].size(), 2u);
  EXPECT_EQ(grounded[0]["claims"][1]["text"], "Vitamin D supplements improve bone density (p < 0.05).");
  EXPECT_EQ(grounded[0]["claims"][1]["begin"], 56);
  EXPECT_EQ(grounded[1]["answer"], "I don't know");
  EXPECT_EQ(grounded[1]["reason"], "empty answer");
  EXPECT_EQ(grounded[2]["reason"], "empty context");
  EXPECT_EQ(grounded[3]["id"], "4");
  EXPECT_EQ(grounded[3]["claims"][0]["text"], "Aspirin lowers risk, e.g. in adults.");
  for (const auto& answer : grounded) {
    std::string kept;
    for (const auto& claim : answer["claims"]) {
      if (claim["kept"].get<bool>()) kept += (kept.empty() ? "" : " ") + claim["text"].get<std::string>();
      EXPECT_EQ(claim["kept"].get<bool>(), claim["label"] == "supported");
    }
    EXPECT_EQ(answer["answer"], kept.empty() ? "I don't know" : kept);
  }
  // The same bytes with two threads.
  const auto two = folder.path() / "two.jsonl";
  ASSERT_EQ(run_claimrag("--quiet ground --data " + kTiny + " --answers " + kFixture + "/answers.jsonl --out " + two.string() +
                             " --model " + model_ + " --threads 2",
                         folder.path())
                .exit_code,
            0);
  EXPECT_EQ(claimrag::testing::slurp(two), claimrag::testing::slurp(out));
}

TEST_F(CliGround, TheSummaryLineCountsTheClaimsKeptAndDroppedByReasonAsWritten) {
  TempFolder folder;
  // One claim the passage states, its negation, and one on another subject.
  const auto answers = folder.write("answers.jsonl",
                                    "{\"id\": \"q1\", \"answer\": \"Aspirin lowered the risk of stroke in adults. Aspirin had no "
                                    "effect on the risk of stroke in adults. The Eiffel Tower is made of iron.\", \"context\": [{\"id\": "
                                    "\"p1\", \"text\": \"In this trial, aspirin lowered the risk of stroke in adults.\"}]}\n");
  const auto out = folder.path() / "grounded.jsonl";
  const auto outcome = run_claimrag("ground --answers " + answers.string() + " --out " + out.string() + " --model " + model_, folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  std::map<std::string, int> labels;
  for (const auto& answer : lines(claimrag::testing::slurp(out))) {
    for (const auto& claim : answer["claims"]) ++labels[claim["label"].get<std::string>()];
  }
  EXPECT_EQ(labels, (std::map<std::string, int>{{"supported", 1}, {"conflicting", 1}, {"irrelevant", 1}}));
  EXPECT_NE(outcome.err.find("1 answers, 3 claims: 1 kept, 1 dropped as conflicting, 1 as irrelevant;"), std::string::npos)
      << outcome.err;
}

TEST_F(CliGround, TheContradictRatioDecidesBetweenKeptAndConflicting) {
  TempFolder folder;
  // "Daily low-dose aspirin lowers the risk of a first heart attack." against the abstract that
  // says so: P(SUPPORT) 0.71, P(CONTRADICT) 0.20. Under the shipped γ it is kept; under γ 0.25,
  // which asks support to outweigh contradiction four times, 0.20 ≥ 0.25 × 0.71 drops it.
  const auto label_at = [&](const std::string& flag) {
    const auto out = folder.path() / "grounded.jsonl";
    const auto outcome = run_claimrag("--quiet ground --data examples/abstracts --answers examples/answers.jsonl --out " + out.string() +
                                          " --model " + model_ + flag,
                                      folder.path());
    EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
    const auto first = lines(claimrag::testing::slurp(out)).at(0);
    EXPECT_EQ(first["claims"].at(0)["text"], "Daily low-dose aspirin lowers the risk of a first heart attack.");
    return first["claims"].at(0)["label"].get<std::string>();
  };
  EXPECT_EQ(label_at(""), "supported");
  EXPECT_EQ(label_at(" --contradict-ratio 0.25"), "conflicting");
  // What a hostile or careless caller may pass: each is refused before anything is read or
  // written, naming the flag and the range.
  for (const std::string ratio : {"0", "-0.5", "10.5", "nan", "inf", "1e400", "0.4x", ""}) {
    const auto out = folder.path() / "refused.jsonl";
    const auto refused = run_claimrag("--quiet ground --data examples/abstracts --answers examples/answers.jsonl --out " + out.string() +
                                          " --model " + model_ + " --contradict-ratio '" + ratio + "'",
                                      folder.path());
    EXPECT_EQ(refused.exit_code, 2) << ratio << ": " << refused.err;
    EXPECT_NE(refused.err.find("--contradict-ratio"), std::string::npos) << ratio << ": " << refused.err;
    EXPECT_NE(refused.err.find("(0, 10]"), std::string::npos) << ratio << ": " << refused.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << ratio;
  }
}

TEST_F(CliGround, BadInputIsADataErrorNamingFileAndLineAndWritesNothing) {
  TempFolder folder;
  const auto out = folder.path() / "grounded.jsonl";
  const std::string good = "{\"id\": \"a\", \"answer\": \"Aspirin works.\", \"context\": [\"d1\"]}\n";
  const std::pair<std::string, std::string> cases[] = {
      {good + "{\"id\": \"b\", \"answer\": \"x\", \"context\": [\"missing\"]}\n", "bad.jsonl:2: context document \"missing\" is not in the corpus"},
      {good + "{\"id\": \"b\", \"answer\": \"caf\xC3\"}\n", "bad.jsonl:2: malformed JSON"},
      {good + "{\"id\": \"c\", \"answer\": \"x\", \"answer\": \"y\", \"context\": [\"d1\"]}\n", "bad.jsonl:2: the key \"answer\" appears twice"},
  };
  for (const auto& [contents, message] : cases) {
    const auto input = folder.write("bad.jsonl", contents);
    const auto outcome = run_claimrag("--quiet ground --data " + kTiny + " --answers " + input.string() + " --out " + out.string() +
                                          " --model " + model_,
                                      folder.path());
    EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
    EXPECT_NE(outcome.err.find(message), std::string::npos) << outcome.err;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
}

TEST(CliGroundUsage, AnUnknownVerifierIsAUsageError) {
  TempFolder folder;
  const auto outcome = run_claimrag("ground --answers " + kFixture + "/answers.jsonl --out " + (folder.path() / "o.jsonl").string() +
                                        " --verifier magic",
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
  EXPECT_NE(outcome.err.find("--verifier"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "o.jsonl"));
}

}  // namespace
