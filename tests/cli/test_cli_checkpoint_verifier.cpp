// `--verifier checkpoint:DIR` end to end on the committed tiny NLI checkpoints: verify's verdicts
// are the model's own probabilities as `claimrag predict` reports them, mapped by label name
// (three labels and two); ground, sufficiency and interrogate run on it and record it; a folder
// that is no NLI classifier, or whose labels cannot be mapped, is refused with nothing written.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"
#include "support/verifying_runs.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::json_lines;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;
using nlohmann::json;

using claimrag::testing::kModels;
const std::string kThreeLabels = kModels + "bert-classifier";          // contradiction, entailment, neutral
const std::string kTwoLabels = kModels + "roberta-classifier-bf16";    // entailment, not_entailment
const std::string kEmbedding = kModels + "bert-embedding-sharded";
using claimrag::testing::kTiny;

// (evidence, claim): one-sentence evidence, so that the premise of each pair is the evidence as written.
const std::vector<std::pair<std::string, std::string>> kPairs{
    {"the drug reduces risk of cancer", "the drug reduces risk"},
    {"no effect on cells", "the protein has high effect on cells"},
    {"a cat sat on the mat", "the dog ran"}};

struct Expected {
  double support, contradict, nei;
};

// What the rule gives a one-sentence document: that sentence's distribution, mapped by name.
std::vector<Expected> predicted(const std::string& checkpoint, TempFolder& folder) {
  std::ostringstream pairs;
  for (std::size_t i = 0; i < kPairs.size(); ++i) {
    pairs << json{{"id", std::to_string(i)}, {"text", kPairs[i].first}, {"text_pair", kPairs[i].second}}.dump() << "\n";
  }
  const auto input = folder.write("predict-in.jsonl", pairs.str());
  const auto out = folder.path() / "predict-out.jsonl";
  const auto outcome = run_claimrag("--quiet predict --checkpoint " + checkpoint + " --pairs " + input.string() + " --out " + out.string(),
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  std::vector<Expected> expected;
  for (const auto& line : json_lines(out)) {
    const auto& p = line["probabilities"];
    const double contradict = p.contains("contradiction") ? p["contradiction"].get<double>() : 0.0;
    const double nei = p.contains("neutral") ? p["neutral"].get<double>() : p["not_entailment"].get<double>();
    expected.push_back({p["entailment"].get<double>(), contradict, nei});
  }
  return expected;
}

fs::path pairs_file(TempFolder& folder) {
  std::ostringstream pairs;
  for (std::size_t i = 0; i < kPairs.size(); ++i) {
    pairs << json{{"id", std::to_string(i)}, {"claim", kPairs[i].second}, {"evidence", kPairs[i].first}}.dump() << "\n";
  }
  return folder.write("pairs.jsonl", pairs.str());
}

// The rule at `threshold` (sentence premises), set by a configuration of its own.
void expect_verdicts_follow_the_model(const std::string& checkpoint, double threshold) {
  TempFolder folder;
  const auto expected = predicted(checkpoint, folder);
  ASSERT_EQ(expected.size(), kPairs.size());
  const auto config = folder.write("config.json", json{{"verification", {{"checkpoint", {{"threshold", threshold}}}}}}.dump());
  const auto out = folder.path() / "verdicts.jsonl";
  const auto outcome = run_claimrag("verify --pairs " + pairs_file(folder).string() + " --out " + out.string() +
                                        " --verifier checkpoint:" + checkpoint + " --config " + config.string(),
                                    folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const auto verdicts = json_lines(out);
  ASSERT_EQ(verdicts.size(), kPairs.size());
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    const auto& p = verdicts[i]["probabilities"];
    // predict writes each probability as the shortest decimal of its float.
    EXPECT_NEAR(p["SUPPORT"].get<double>(), expected[i].support, 1e-6) << verdicts[i].dump();
    EXPECT_NEAR(p["CONTRADICT"].get<double>(), expected[i].contradict, 1e-6) << verdicts[i].dump();
    EXPECT_NEAR(p["NOT_ENOUGH_INFO"].get<double>(), expected[i].nei, 1e-6) << verdicts[i].dump();
    // NEI below the threshold on max(P(SUPPORT), P(CONTRADICT)), else the likelier of the two.
    const auto& e = expected[i];
    const std::string label = std::max(e.support, e.contradict) < threshold ? "NOT_ENOUGH_INFO"
                              : e.contradict > e.support           ? "CONTRADICT"
                                                                   : "SUPPORT";
    EXPECT_EQ(verdicts[i]["label"], label) << verdicts[i].dump();
    EXPECT_EQ(verdicts[i]["rationale"].size(), label == "NOT_ENOUGH_INFO" ? 0U : 1U) << verdicts[i].dump();
  }
  // The record beside the output: the checkpoint's config, its weights' checksum, the label map and the rule.
  const auto meta = json::parse(slurp(folder.path() / "verdicts.meta.json"));
  const auto& verifier = meta["verifier"];
  EXPECT_EQ(verifier["spec"], "checkpoint:" + checkpoint);
  EXPECT_EQ(verifier["checkpoint"]["config"], json::parse(slurp(fs::path(CLAIMRAG_SOURCE_DIR) / checkpoint / "config.json")));
  EXPECT_EQ(verifier["checkpoint"]["weights_xxh64"]["model.safetensors"].get<std::string>().size(), 16U);
  EXPECT_EQ(verifier["checkpoint"]["label_map"]["entailment"], "SUPPORT");
  EXPECT_EQ(verifier["rule"]["premise"], "sentence");
  EXPECT_EQ(verifier["rule"]["threshold"], threshold);
}

// The random fixtures give each label 0.15 to 0.5: 0.3 lets SUPPORT and CONTRADICT through, 0.5 none.
TEST(CliCheckpointVerifier, ThreeLabelVerdictsAreTheModelsProbabilitiesByName) {
  expect_verdicts_follow_the_model(kThreeLabels, 0.3);
  expect_verdicts_follow_the_model(kThreeLabels, 0.5);
}

TEST(CliCheckpointVerifier, TwoLabelModelsNeverContradict) {
  expect_verdicts_follow_the_model(kTwoLabels, 0.3);
  TempFolder folder;
  const auto out = folder.path() / "v.jsonl";
  ASSERT_EQ(run_claimrag("--quiet verify --pairs " + pairs_file(folder).string() + " --out " + out.string() + " --verifier checkpoint:" +
                             kTwoLabels,
                         folder.path())
                .exit_code,
            0);
  for (const auto& verdict : json_lines(out)) {
    EXPECT_EQ(verdict["probabilities"]["CONTRADICT"], 0.0);
    EXPECT_NE(verdict["label"], "CONTRADICT");
  }
}

TEST(CliCheckpointVerifier, EverySubcommandRunsOnTheCheckpointAndRecordsIt) {
  TempFolder folder;
  const std::string spec = " --verifier checkpoint:" + kThreeLabels;
  // verify --claim (BM25 over the corpus, then the checkpoint) and --run.
  const auto claim = run_claimrag("--quiet verify --data " + kTiny + " --claim 'Aspirin lowers heart disease risk.' --k 2 --json" + spec,
                                  folder.path());
  ASSERT_EQ(claim.exit_code, 0) << claim.err;
  EXPECT_EQ(json::parse(claim.out)["documents"].size(), 2U) << claim.out;
  const auto run = folder.write("run.trec", "q1 Q0 d1 1 3.0 bm25\nq1 Q0 d2 2 2.0 bm25\n");
  const auto predictions = folder.path() / "predictions.jsonl";
  const auto by_run = run_claimrag("--quiet verify --data " + kTiny + " --queries " + kTiny + "/queries.jsonl --run " + run.string() +
                                       " --out " + predictions.string() + spec,
                                   folder.path());
  ASSERT_EQ(by_run.exit_code, 0) << by_run.err;
  EXPECT_TRUE(fs::exists(folder.path() / "predictions.meta.json"));

  std::vector<std::string> grounded;
  for (const std::string threads : {"1", "2"}) {
    const auto out = folder.path() / ("ground" + threads + ".jsonl");
    const auto outcome = run_claimrag("--quiet ground --data " + kTiny + " --answers data/fixtures/grounding/answers.jsonl --out " +
                                          out.string() + spec + " --threads " + threads,
                                      folder.path());
    ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
    grounded.push_back(slurp(out));
    EXPECT_TRUE(fs::exists(folder.path() / ("ground" + threads + ".meta.json")));
  }
  EXPECT_EQ(grounded[0], grounded[1]);
  for (const auto& answer : json_lines(folder.path() / "ground1.jsonl")) {
    for (const auto& claim : answer["claims"]) {
      EXPECT_EQ(claim["kept"].get<bool>(), claim["label"] == "supported") << claim.dump();
    }
  }

  const auto sufficiency = folder.path() / "sufficiency.jsonl";
  const auto judged = claimrag::testing::run_sufficiency_on_one_example(folder, spec, sufficiency);
  ASSERT_EQ(judged.exit_code, 0) << judged.err;
  EXPECT_EQ(json_lines(sufficiency).size(), 1U);
  EXPECT_TRUE(fs::exists(folder.path() / "sufficiency.meta.json"));

  const auto interrogated = folder.path() / "interrogate.jsonl";
  const auto asked = claimrag::testing::run_interrogate_on_one_pair(folder, spec, interrogated);
  ASSERT_EQ(asked.exit_code, 0) << asked.err;
  EXPECT_EQ(json_lines(interrogated).size(), 1U);
  EXPECT_TRUE(fs::exists(folder.path() / "interrogate.meta.json"));
}

TEST(CliCheckpointVerifier, AFolderWithoutAnNliHeadIsRefusedNamingIt) {
  TempFolder folder;
  const auto out = folder.path() / "v.jsonl";
  for (const std::string& checkpoint : {kEmbedding, kModels + "bert-reranker-f16"}) {
    const auto refused = run_claimrag("verify --pairs " + pairs_file(folder).string() + " --out " + out.string() +
                                          " --verifier checkpoint:" + checkpoint,
                                      folder.path());
    EXPECT_EQ(refused.exit_code, 2) << checkpoint;
    EXPECT_NE(refused.err.find(checkpoint), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("NLI classification head"), std::string::npos) << refused.err;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(folder.path() / "v.meta.json"));
  }
  const auto saved = run_claimrag("verify --pairs " + pairs_file(folder).string() + " --out " + out.string() + " --verifier checkpoint:" +
                                      kThreeLabels + " --save-model " + (folder.path() / "m.safetensors").string(),
                                  folder.path());
  EXPECT_EQ(saved.exit_code, 2);
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliCheckpointVerifier, LabelsThatAreNoNliSetAreRefusedListingThem) {
  TempFolder folder;
  const fs::path copy = folder.path() / "labels";
  fs::create_directories(copy);
  const fs::path source = fs::path(CLAIMRAG_SOURCE_DIR) / kThreeLabels;
  for (const auto& entry : fs::directory_iterator(source)) fs::copy_file(entry.path(), copy / entry.path().filename());
  auto config = json::parse(slurp(copy / "config.json"));
  config["id2label"] = {{"0", "LABEL_0"}, {"1", "LABEL_1"}, {"2", "LABEL_2"}};
  config["label2id"] = {{"LABEL_0", 0}, {"LABEL_1", 1}, {"LABEL_2", 2}};
  std::ofstream(copy / "config.json", std::ios::trunc) << config.dump(2);
  const auto out = folder.path() / "v.jsonl";
  const auto refused = run_claimrag("verify --pairs " + pairs_file(folder).string() + " --out " + out.string() +
                                        " --verifier checkpoint:" + copy.string(),
                                    folder.path());
  EXPECT_EQ(refused.exit_code, 3);
  EXPECT_NE(refused.err.find((copy / "config.json").string()), std::string::npos) << refused.err;
  for (const char* label : {"'LABEL_0'", "'LABEL_1'", "'LABEL_2'"}) EXPECT_NE(refused.err.find(label), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(out));
}

bool have_scifact() { return fs::exists(fs::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/original/claims_train.jsonl"); }

// The rule's choice by grouped cross-validation on SciFact's train claims runs end to end and
// records the checkpoint; on the random fixture its numbers mean nothing, so only their shape is
// checked.
TEST(CliCheckpointVerifier, ReproductionStageChoosesTheRuleOnTrainAndRecordsTheCheckpoint) {
  if (!have_scifact()) GTEST_SKIP() << "data/scifact is missing";
  TempFolder folder;
  const fs::path source = CLAIMRAG_SOURCE_DIR;
  const json config{{"name", "checkpoint"},
                    {"data", {{"beir", (source / "data/scifact/beir").string()}, {"original", (source / "data/scifact/original").string()}}},
                    {"verification", {{"checkpoint", {{"verifier", "checkpoint:" + (source / kThreeLabels).string()},
                                                      // abstracts only: one pair per document keeps the test short
                                                      {"premise_grid", {"abstract"}},
                                                      {"threshold_grid", {0.5, 0.9}}}}}},
                    {"stages", {"checkpoint_verification"}}};
  const auto config_file = folder.write("checkpoint.json", config.dump(2));
  const auto out = folder.path() / "reproduction";
  const auto outcome = run_claimrag("--quiet reproduce --config " + config_file.string() + " --out " + out.string(), folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  std::istringstream table(slurp(out / "tables/checkpoint_verification.tsv"));
  std::vector<std::string> rows;
  for (std::string line; std::getline(table, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 3U);  // header, then one premise × 2 thresholds
  EXPECT_EQ(rows[0], "premise\tthreshold\tlabel_only_f1\tlabel_rationale_f1\tchosen");
  const auto choice = json::parse(slurp(out / "checkpoint_verification/choice.json"));
  EXPECT_EQ(choice["fold_choices"].size(), 5U);
  EXPECT_GT(choice["claims"].get<int>(), 500);
  const auto meta = json::parse(slurp(out / "meta.json"));
  EXPECT_EQ(meta["checkpoint_verifier"]["checkpoint"]["weights_xxh64"], choice["verifier"]["checkpoint"]["weights_xxh64"]);
}

// The stacked variant fits on SciFact's train claims and gives distributions over the three labels.
TEST(CliCheckpointVerifier, StackedVariantFitsOnTrainAndVerifies) {
  if (!have_scifact()) GTEST_SKIP() << "data/scifact is missing";
  TempFolder folder;
  const fs::path source = CLAIMRAG_SOURCE_DIR;
  const json config{{"data", {{"beir", (source / "data/scifact/beir").string()}, {"original", (source / "data/scifact/original").string()}}},
                    {"verification", {{"checkpoint", {{"stacked", true}, {"premise", "abstract"}}}}}};
  const auto config_file = folder.write("stacked.json", config.dump(2));
  const auto out = folder.path() / "verdicts.jsonl";
  const auto outcome = run_claimrag("verify --pairs " + pairs_file(folder).string() + " --out " + out.string() + " --config " +
                                        config_file.string() + " --verifier checkpoint:" + kThreeLabels,
                                    folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.err.find("stacked verifier: fitted on"), std::string::npos) << outcome.err;
  const auto verdicts = json_lines(out);
  ASSERT_EQ(verdicts.size(), kPairs.size());
  for (const auto& verdict : verdicts) {
    const auto& p = verdict["probabilities"];
    EXPECT_NEAR(p["SUPPORT"].get<double>() + p["CONTRADICT"].get<double>() + p["NOT_ENOUGH_INFO"].get<double>(), 1.0, 1e-9);
  }
  EXPECT_EQ(json::parse(slurp(folder.path() / "verdicts.meta.json"))["verifier"]["stacked"], true);
}

}  // namespace
