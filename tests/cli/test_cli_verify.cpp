// claimrag verify end to end: bad input stops before any model is loaded or trained, names the
// file and line, exits with the documented code and leaves no output file.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::run_claimrag;
using claimrag::testing::TempFolder;

namespace {

using claimrag::testing::kTiny;

/// `verify --pairs` on a file whose third line is `bad_line`: exit 3, `file:3: reason`, no output.
void expect_bad_pairs(const std::string& bad_line, const std::string& reason) {
  TempFolder folder;
  const auto pairs = folder.write("pairs.jsonl", "{\"id\": \"a\", \"claim\": \"c\", \"evidence\": \"e\"}\n\n" + bad_line + "\n");
  const auto out = folder.path() / "verdicts.jsonl";
  const auto outcome = run_claimrag("verify --pairs " + pairs.string() + " --out " + out.string() + " --model absent.safetensors",
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  EXPECT_NE(outcome.err.find(pairs.string() + ":3: " + reason), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace

TEST(CliVerify, BadPairsNameFileAndLineAndWriteNothing) {
  expect_bad_pairs("{\"id\": \"b\", \"claim\": \"c\"", "malformed JSON");
  expect_bad_pairs("{\"id\": \"b\", \"claim\": \"c\"}", "\"evidence\" is missing");
  expect_bad_pairs("{\"id\": \"b\", \"claim\": \"\", \"evidence\": \"e\"}", "\"claim\" is empty");
  expect_bad_pairs("{\"id\": \"b\", \"claim\": [1], \"evidence\": \"e\"}", "\"claim\" is not a string");
  expect_bad_pairs("{\"id\": \"a\", \"claim\": \"c\", \"evidence\": \"e\"}", "duplicate id \"a\" (first on line 1)");
}

TEST(CliVerify, FlagsOfTwoModesOrNoneAreUsageErrors) {
  TempFolder folder;
  const auto none = run_claimrag("verify --data " + kTiny, folder.path());
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("give exactly one of --run, --pairs and --claim"), std::string::npos) << none.err;
  ::setenv("OMP_NUM_THREADS", "2", 1);
  const auto two = run_claimrag("verify --data " + kTiny + " --claim 'x' --pairs p.jsonl", folder.path());
  EXPECT_EQ(two.exit_code, 2);
  const auto json_with_pairs = run_claimrag("verify --pairs p.jsonl --out o.jsonl --json", folder.path());
  EXPECT_EQ(json_with_pairs.exit_code, 2);
  EXPECT_NE(json_with_pairs.err.find("--json does not apply with --pairs"), std::string::npos) << json_with_pairs.err;
}

TEST(CliVerify, ARunNamingADocumentOutsideTheCorpusIsADataErrorAndWritesNothing) {
  TempFolder folder;
  const auto run = folder.write("run.trec", "q1 Q0 d99 1 3 t\n");
  const auto out = folder.path() / "pred.jsonl";
  const auto outcome = run_claimrag("verify --data " + kTiny + " --split test --run " + run.string() + " --k 3 --out " + out.string() +
                                        " --model absent.safetensors",
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  EXPECT_NE(outcome.err.find(run.string() + ": claim q1 ranks document d99"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

namespace {

const std::string kSciFact = "data/scifact";

bool have_scifact() {
  return std::filesystem::exists(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / kSciFact / "original/claims_train.jsonl") &&
         std::filesystem::exists(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / kSciFact / "beir/corpus.jsonl");
}

}  // namespace

TEST(CliVerify, SciFactRunPredictionsAreTheSameBytesForOneAndTwoThreadsAndScore) {
  if (!have_scifact()) GTEST_SKIP() << "data/scifact is missing";
  TempFolder folder;
  const std::string out = folder.path().string();
  const std::string beir = kSciFact + "/beir", original = kSciFact + "/original";
  ASSERT_EQ(run_claimrag("--quiet index --data " + beir + " --method bm25 --out " + out + "/index", folder.path()).exit_code, 0);
  ASSERT_EQ(run_claimrag("--quiet retrieve --data " + beir + " --index " + out + "/index --method bm25 --split test --k 3 --out " + out +
                             "/bm25.trec",
                         folder.path())
                .exit_code,
            0);
  const std::string common = "verify --data " + beir + " --split test --run " + out + "/bm25.trec --original " + original;
  const auto trained = run_claimrag(common + " --out " + out + "/trained.jsonl --save-model " + out + "/verifier.safetensors", folder.path());
  ASSERT_EQ(trained.exit_code, 0) << trained.err;
  EXPECT_NE(trained.err.find("verifier trained on 809 train claims"), std::string::npos) << trained.err;
  // The child processes inherit the thread count from this one's environment.
  ::setenv("OMP_NUM_THREADS", "1", 1);
  const auto one = run_claimrag("verify --model " + out + "/verifier.safetensors " + common.substr(7) + " --out " + out + "/one.jsonl",
                                folder.path());
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ::setenv("OMP_NUM_THREADS", "2", 1);
  const auto two = run_claimrag(
      "verify --model " + out + "/verifier.safetensors " + common.substr(7) + " --out " + out + "/two.jsonl", folder.path());
  ::unsetenv("OMP_NUM_THREADS");
  ASSERT_EQ(two.exit_code, 0) << two.err;
  const std::string bytes = claimrag::testing::slurp(out + "/one.jsonl");
  EXPECT_EQ(std::count(bytes.begin(), bytes.end(), '\n'), 300);
  EXPECT_EQ(claimrag::testing::slurp(out + "/trained.jsonl"), bytes);  // a loaded model answers as the trained one
  EXPECT_EQ(claimrag::testing::slurp(out + "/two.jsonl"), bytes);
  const auto evaluated = run_claimrag("--quiet evaluate --verification " + out + "/one.jsonl --original " + original +
                                          " --split test --out " + out + "/scores",
                                      folder.path());
  EXPECT_EQ(evaluated.exit_code, 0) << evaluated.err;
}

TEST(CliVerify, OneClaimPrintsAVerdictAndItsJsonParses) {
  if (!have_scifact()) GTEST_SKIP() << "data/scifact is missing";
  TempFolder folder;
  const std::string out = folder.path().string();
  const std::string common = "verify --data " + kSciFact + "/beir --original " + kSciFact + "/original --claim '0-dimensional biomaterials show inductive properties.'";
  const auto trained = run_claimrag("--quiet " + common + " --save-model " + out + "/verifier.safetensors", folder.path());
  ASSERT_EQ(trained.exit_code, 0) << trained.err;
  EXPECT_NE(trained.out.find("Claim: 0-dimensional biomaterials show inductive properties.\n"), std::string::npos) << trained.out;
  EXPECT_NE(trained.out.find("\nVerdict: "), std::string::npos) << trained.out;
  const auto json = run_claimrag("--quiet " + common + " --model " + out + "/verifier.safetensors --json", folder.path());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto parsed = nlohmann::json::parse(json.out);
  EXPECT_EQ(parsed["claim"], "0-dimensional biomaterials show inductive properties.");
  EXPECT_EQ(parsed["documents"].size(), 3u);  // verification.verify_k
  EXPECT_EQ(parsed["not_enough_evidence"].get<bool>(), trained.out.find("Verdict: not enough evidence") != std::string::npos);
}

TEST(CliVerify, TrainingWithoutTheReleaseLayoutIsAUsageErrorNamingTheMissingFile) {
  TempFolder folder;
  const auto config = folder.write("config.json", "{\"data\": {\"original\": \"" + folder.path().string() + "/absent\"}}");
  const auto outcome = run_claimrag("verify --data " + kTiny + " --claim 'Aspirin lowers risk.' --config " + config.string(), folder.path());
  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
  EXPECT_NE(outcome.err.find("training the verifier needs SciFact's release layout"), std::string::npos) << outcome.err;
}
