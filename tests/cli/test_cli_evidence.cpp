// extract-evidence and evaluate --evidence end to end on data/fixtures/tiny-beir. Every abstract
// there is one sentence, so the pseudo-gold of a claim is its relevant abstracts' sentences and
// the top-2 exact-match scores follow from which documents BM25 ranks (test_cli_bm25.cpp).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

namespace {

using claimrag::testing::kTiny;

void bm25_run(const TempFolder& folder) {
  const std::string out = folder.path().string();
  ASSERT_EQ(run_claimrag("--quiet index --data " + kTiny + " --method bm25 --out " + out + "/index", folder.path()).exit_code, 0);
  ASSERT_EQ(run_claimrag("--quiet retrieve --data " + kTiny + " --index " + out + "/index --method bm25 --split test --out " + out +
                             "/bm25.trec",
                         folder.path())
                .exit_code,
            0);
}

}  // namespace

TEST(CliEvidence, ExtractsTopTwoPerClaimAndEvaluatesAgainstThePseudoGold) {
  TempFolder folder;
  bm25_run(folder);
  const std::string out = folder.path().string();
  const auto extracted = run_claimrag("extract-evidence --data " + kTiny + " --run " + out + "/bm25.trec --out " + out + "/evidence.jsonl",
                                      folder.path());
  ASSERT_EQ(extracted.exit_code, 0) << extracted.err;
  EXPECT_NE(extracted.err.find("verifier epoch 5/5"), std::string::npos) << extracted.err;
  // q1 -> d1; q2 -> d3; q3 -> d5, d1; q4 -> d4, d6; q5 -> d2: one candidate sentence per document.
  std::istringstream lines(slurp(folder.path() / "evidence.jsonl"));
  std::vector<std::string> ids;
  std::vector<std::size_t> candidates;
  for (std::string line; std::getline(lines, line);) {
    const auto json = nlohmann::json::parse(line);
    ids.push_back(json["claim_id"].get<std::string>());
    candidates.push_back(json["candidates"].get<std::size_t>());
    EXPECT_EQ(json["selected"].size(), std::min<std::size_t>(2, candidates.back()));
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"q1", "q2", "q3", "q4", "q5"}));
  EXPECT_EQ(candidates, (std::vector<std::size_t>{1, 1, 2, 2, 1}));
  const auto meta = nlohmann::json::parse(slurp(folder.path() / "evidence.meta.json"));
  // Train claim q6 -> d2 (positive); BM25's other documents for it, d3 and d4 ("and" in their
  // titles), give the only 2 negatives.
  EXPECT_EQ(meta["verifier"]["training_pairs"].get<int>(), 3);
  EXPECT_EQ(meta["verifier"]["training_positives"].get<int>(), 1);

  // Exact F1 of the top-2 against the pseudo-gold: q1, q2 1; q3 {d5, d1} vs {d5} 2/3;
  // q4 {d4, d6} vs {d4, d6} 1; q5 {d2} vs {d2, d6} 2/3.
  const double expected = (1 + 1 + 2.0 / 3.0 + 1 + 2.0 / 3.0) / 5.0;
  std::ostringstream check;
  check.precision(17);
  check << "{\"sections\": {\"evidence\": {\"exact_f1@2\": {\"value\": " << expected << ", \"tolerance\": 1e-12}}}}";
  const auto good = folder.write("good.expected.json", check.str());
  const auto evaluated = run_claimrag("evaluate --data " + kTiny + " --split test --evidence " + out + "/evidence.jsonl --out " + out +
                                          "/scores --check " + good.string(),
                                      folder.path());
  ASSERT_EQ(evaluated.exit_code, 0) << evaluated.err << evaluated.out;
  EXPECT_NE(evaluated.out.find("OK   evidence exact_f1@2"), std::string::npos) << evaluated.out;
  const auto scores = nlohmann::json::parse(slurp(folder.path() / "scores.json"));
  EXPECT_NEAR(scores["metrics"]["exact_f1@2"].get<double>(), expected, 1e-12);
  EXPECT_EQ(scores["claims"].get<int>(), 5);

  const auto bad = folder.write("bad.expected.json", "{\"sections\": {\"evidence\": {\"exact_f1@2\": {\"value\": 0.5, \"tolerance\": 1e-6}}}}");
  const auto failed = run_claimrag("evaluate --data " + kTiny + " --split test --evidence " + out + "/evidence.jsonl --out " + out +
                                       "/scores2 --check " + bad.string(),
                                   folder.path());
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_NE(failed.out.find("FAIL evidence exact_f1@2"), std::string::npos) << failed.out;
}

TEST(CliEvidence, RunAndEvidenceTogetherOrNeitherAreUsageErrors) {
  TempFolder folder;
  EXPECT_EQ(run_claimrag("evaluate --data " + kTiny + " --split test --out x", folder.path()).exit_code, 2);
  EXPECT_EQ(run_claimrag("evaluate --data " + kTiny + " --split test --run a --evidence b --out x", folder.path()).exit_code, 2);
}

TEST(CliEvidence, UnknownDocumentsInTheRunStopWithADataError) {
  TempFolder folder;
  const auto run = folder.write("bad.trec", "q1 Q0 nowhere 1 1.0 bad\n");
  const auto outcome = run_claimrag("--quiet extract-evidence --data " + kTiny + " --run " + run.string() + " --out " +
                                        (folder.path() / "e.jsonl").string(),
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_NE(outcome.err.find(run.string() + ": query q1 ranks document nowhere"), std::string::npos) << outcome.err;
}

TEST(CliEvidence, ASavedVerifierLoadedAgainGivesTheSameEvidence) {
  TempFolder folder;
  bm25_run(folder);
  const std::string out = folder.path().string();
  ASSERT_EQ(run_claimrag("--quiet extract-evidence --data " + kTiny + " --run " + out + "/bm25.trec --out " + out +
                             "/trained.jsonl --save-model " + out + "/verifier.safetensors",
                         folder.path())
                .exit_code,
            0);
  const auto loaded = run_claimrag("extract-evidence --data " + kTiny + " --run " + out + "/bm25.trec --out " + out +
                                       "/loaded.jsonl --model " + out + "/verifier.safetensors",
                                   folder.path());
  ASSERT_EQ(loaded.exit_code, 0) << loaded.err;
  EXPECT_EQ(loaded.err.find("verifier epoch"), std::string::npos);  // nothing trained
  EXPECT_EQ(slurp(folder.path() / "trained.jsonl"), slurp(folder.path() / "loaded.jsonl"));
  const auto meta = nlohmann::json::parse(slurp(folder.path() / "loaded.meta.json"));
  EXPECT_EQ(meta["verifier"]["metadata"]["format"].get<std::string>(), "claimrag-verifier");
  const auto corrupt = folder.write("corrupt.safetensors", "not a model");
  EXPECT_EQ(run_claimrag("--quiet extract-evidence --data " + kTiny + " --run " + out + "/bm25.trec --out " + out +
                             "/x.jsonl --model " + corrupt.string(),
                         folder.path())
                .exit_code,
            3);
}
