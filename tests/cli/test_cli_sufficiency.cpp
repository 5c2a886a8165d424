// claimrag sufficiency and sufficiency-bench end to end: decisions per line with the bad-input
// rules, refusals with their exit codes, nothing written on failure.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

namespace {

const std::string kAggregator = "data/fixtures/sufficiency/aggregator.json";

std::vector<nlohmann::json> lines_of(const std::filesystem::path& file) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(slurp(file));
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

}  // namespace

TEST(CliSufficiency, DecisionsPerLineWithTheBadInputRules) {
  TempFolder folder;
  const auto examples = folder.write("examples.jsonl",
                                     "{\"id\": \"full\", \"claim\": \"Aspirin lowers risk.\", \"evidence\": [\"a\", \"b\", \"b\"]}\n"
                                     "{\"id\": \"none\", \"claim\": \"Aspirin lowers risk.\", \"evidence\": []}\n"
                                     "{\"id\": 3, \"claim\": \"?!\", \"evidence\": [\"a\"]}\n");
  const auto scores = folder.write("scores.jsonl",
                                   "{\"id\": \"full\", \"pairs\": [[0.9, 0.05, 0.05, 0.95], [0.1, 0.1, 0.8, 0.1], [0.1, 0.1, 0.8, 0.1]]}\n"
                                   "{\"id\": \"none\", \"pairs\": []}\n{\"id\": \"3\", \"pairs\": [[0.2, 0.2, 0.6]]}\n");
  const auto out = folder.path() / "out.jsonl";
  const auto outcome = run_claimrag("sufficiency --examples " + examples.string() + " --scores " + scores.string() +
                                        " --aggregator " + kAggregator + " --out " + out.string(),
                                    folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const auto lines = lines_of(out);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0]["id"], "full");
  EXPECT_EQ(lines[0]["duplicates_removed"], 1);
  EXPECT_EQ(lines[0]["passages"], 2);
  EXPECT_EQ(lines[0]["features"]["max_support"], 0.9);
  const auto aggregator = nlohmann::json::parse(slurp(kAggregator));
  const double s = lines[0]["score"].get<double>();
  EXPECT_EQ(lines[0]["decision"] == "answer", lines[0]["label"] == "Supported" && s >= aggregator["tau"].get<double>());
  for (int i : {1, 2}) {
    EXPECT_EQ(lines[static_cast<std::size_t>(i)]["label"], "Insufficient");
    EXPECT_EQ(lines[static_cast<std::size_t>(i)]["decision"], "abstain");
  }
  EXPECT_EQ(lines[1]["reason"], "no evidence");
  EXPECT_EQ(lines[2]["reason"], "the claim has no word");
  EXPECT_EQ(lines[2]["id"], "3");
}

TEST(CliSufficiency, RefusalsWriteNothing) {
  TempFolder folder;
  const auto examples = folder.write("examples.jsonl", "{\"id\": \"a\", \"claim\": \"c\", \"evidence\": [\"e\"]}\n");
  const auto nan = folder.write("nan.jsonl", "{\"id\": \"a\", \"pairs\": [[NaN, 0.5, 0.5]]}\n");
  const auto out = folder.path() / "out.jsonl";
  const auto bad = run_claimrag("sufficiency --examples " + examples.string() + " --scores " + nan.string() + " --aggregator " +
                                    kAggregator + " --out " + out.string(),
                                folder.path());
  EXPECT_EQ(bad.exit_code, 3) << bad.err;
  EXPECT_NE(bad.err.find(nan.string() + ":1"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  // Without --model and --scores the built-in verifier scores the pairs; with both, which to use is unclear.
  const auto both_scorers = run_claimrag("sufficiency --examples " + examples.string() + " --scores " + nan.string() + " --model m.safetensors --aggregator " +
                                             kAggregator + " --out " + out.string(),
                                         folder.path());
  EXPECT_EQ(both_scorers.exit_code, 2) << both_scorers.err;
  const auto both_inputs = run_claimrag("sufficiency --examples " + examples.string() + " --run r.trec --scores " + nan.string() +
                                            " --aggregator " + kAggregator + " --out " + out.string(),
                                        folder.path());
  EXPECT_EQ(both_inputs.exit_code, 2) << both_inputs.err;
  EXPECT_NE(both_inputs.err.find("give exactly one of --examples and --run"), std::string::npos) << both_inputs.err;
  const auto run_without_data = run_claimrag("sufficiency --run r.trec --split test --model m.safetensors --aggregator " + kAggregator +
                                                 " --out " + out.string(),
                                             folder.path());
  EXPECT_EQ(run_without_data.exit_code, 2) << run_without_data.err;
  const auto broken = folder.write("broken.jsonl", "{\"id\": \"a\", \"claim\": \"c\", \"evidence\": \"e\"}\n");
  const auto malformed = run_claimrag("sufficiency --examples " + broken.string() + " --scores " + nan.string() + " --aggregator " +
                                          kAggregator + " --out " + out.string(),
                                      folder.path());
  EXPECT_EQ(malformed.exit_code, 3) << malformed.err;
  EXPECT_NE(malformed.err.find(broken.string() + ":1: \"evidence\" must be an array of strings"), std::string::npos) << malformed.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliSufficiencyBench, BuildsGroupsFromAnOriginalLayout) {
  TempFolder folder;
  folder.write("original/corpus.jsonl",
               "{\"doc_id\": 10, \"title\": \"t\", \"abstract\": [\"Aspirin lowers stroke risk in adults.\", \"We enrolled patients.\", "
               "\"Stroke risk fell with aspirin use.\", \"Funding was public.\"], \"structured\": false}\n"
               "{\"doc_id\": 30, \"title\": \"t\", \"abstract\": [\"Aspirin and stroke in mice.\", \"Stroke models vary.\"], \"structured\": false}\n"
               "{\"doc_id\": 31, \"title\": \"t\", \"abstract\": [\"Aspirin risk in children.\", \"Adults had more stroke.\"], \"structured\": false}\n");
  folder.write("original/claims_train.jsonl", "{\"id\": 1, \"claim\": \"Nothing here.\", \"evidence\": {}, \"cited_doc_ids\": []}\n");
  folder.write("original/claims_dev.jsonl",
               "{\"id\": 2, \"claim\": \"Aspirin lowers stroke risk.\", \"evidence\": {\"10\": [{\"sentences\": [0, 2], \"label\": "
               "\"SUPPORT\"}]}, \"cited_doc_ids\": [10]}\n");
  const auto out = folder.path() / "bench.jsonl";
  const auto outcome = run_claimrag("sufficiency-bench --original " + (folder.path() / "original").string() + " --out " + out.string() +
                                        " --config configs/scifact.json",
                                    folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const auto lines = lines_of(out);
  ASSERT_EQ(lines.size(), 4u);  // full, partial, hard_insufficient, irrelevant
  for (const auto& line : lines) {
    EXPECT_EQ(line["split"], "test");
    EXPECT_EQ(line["evidence"].size(), 4u);  // 2 rationale slots + 2 distractors
    EXPECT_EQ(line["label"], line["variant"] == "full" ? "Supported" : "Insufficient");
  }
}
