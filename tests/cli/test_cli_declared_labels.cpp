// Checkers whose config.json names the labels LABEL_0 / LABEL_1 (MiniCheck's): refused as today
// without a declaration; with `--labels unsupported,supported` (or the configuration's
// verification.checkpoint.labels) P(SUPPORT) is P(supported) and P(NOT_ENOUGH_INFO) the rest,
// never CONTRADICT, on every subcommand that verifies; a declaration of the wrong size, of unknown
// names or for a verifier that is no checkpoint is refused with exit code 2, nothing written.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

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

const std::string kDeclaredLabelsTiny = "data/fixtures/tiny-beir";

// (evidence, claim), one sentence of evidence each.
const std::vector<std::pair<std::string, std::string>> kDeclaredLabelsPairs{
    {"the drug reduces risk of cancer", "the drug reduces risk"},
    {"no effect on cells", "the protein has high effect on cells"},
    {"a cat sat on the mat", "the dog ran"}};

// The two-label RoBERTa fixture with its labels renamed as MiniCheck's config.json names them.
fs::path minicheck_like_checkpoint(const TempFolder& folder) {
  const fs::path copy = folder.path() / "minicheck-like";
  fs::create_directories(copy);
  const fs::path source = fs::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained/models/roberta-classifier-bf16";
  for (const auto& entry : fs::directory_iterator(source)) fs::copy_file(entry.path(), copy / entry.path().filename());
  auto config = json::parse(slurp(copy / "config.json"));
  config["id2label"] = {{"0", "LABEL_0"}, {"1", "LABEL_1"}};
  config["label2id"] = {{"LABEL_0", 0}, {"LABEL_1", 1}};
  std::ofstream(copy / "config.json", std::ios::trunc) << config.dump(2);
  return copy;
}

fs::path declared_labels_pairs(const TempFolder& folder) {
  std::ostringstream pairs;
  for (std::size_t i = 0; i < kDeclaredLabelsPairs.size(); ++i) {
    pairs << json{{"id", std::to_string(i)}, {"claim", kDeclaredLabelsPairs[i].second}, {"evidence", kDeclaredLabelsPairs[i].first}}.dump()
          << "\n";
  }
  return folder.write("pairs.jsonl", pairs.str());
}

// The model's own probabilities per pair, by config.json's names, as `predict` reports them.
std::vector<json> predicted_probabilities(const fs::path& checkpoint, const TempFolder& folder) {
  std::ostringstream pairs;
  for (std::size_t i = 0; i < kDeclaredLabelsPairs.size(); ++i) {
    pairs << json{{"id", std::to_string(i)}, {"text", kDeclaredLabelsPairs[i].first}, {"text_pair", kDeclaredLabelsPairs[i].second}}.dump()
          << "\n";
  }
  const auto input = folder.write("predict-in.jsonl", pairs.str());
  const auto out = folder.path() / "predict-out.jsonl";
  const auto outcome = run_claimrag("--quiet predict --checkpoint " + checkpoint.string() + " --pairs " + input.string() + " --out " +
                                        out.string(),
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  std::vector<json> probabilities;
  for (const auto& line : json_lines(out)) probabilities.push_back(line["probabilities"]);
  return probabilities;
}

void expect_supported_is_support(const std::vector<json>& verdicts, const std::vector<json>& predicted) {
  ASSERT_EQ(verdicts.size(), predicted.size());
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    const auto& p = verdicts[i]["probabilities"];
    // predict writes each probability as the shortest decimal of its float.
    EXPECT_NEAR(p["SUPPORT"].get<double>(), predicted[i]["LABEL_1"].get<double>(), 1e-6) << verdicts[i].dump();
    EXPECT_NEAR(p["NOT_ENOUGH_INFO"].get<double>(), predicted[i]["LABEL_0"].get<double>(), 1e-6) << verdicts[i].dump();
    EXPECT_EQ(p["CONTRADICT"].get<double>(), 0.0) << verdicts[i].dump();
    EXPECT_NE(verdicts[i]["label"], "CONTRADICT") << verdicts[i].dump();
  }
}

TEST(CliDeclaredLabels, UndeclaredLabelNamesStayRefused) {
  TempFolder folder;
  const auto checkpoint = minicheck_like_checkpoint(folder);
  const auto out = folder.path() / "v.jsonl";
  const auto refused = run_claimrag("verify --pairs " + declared_labels_pairs(folder).string() + " --out " + out.string() +
                                        " --verifier checkpoint:" + checkpoint.string(),
                                    folder.path());
  EXPECT_EQ(refused.exit_code, 3) << refused.err;
  EXPECT_NE(refused.err.find((checkpoint / "config.json").string()), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--labels"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliDeclaredLabels, SupportedIsSupportAndTheRestNotEnoughInfoByFlagOrConfiguration) {
  TempFolder folder;
  const auto checkpoint = minicheck_like_checkpoint(folder);
  const auto predicted = predicted_probabilities(checkpoint, folder);
  const auto pairs = declared_labels_pairs(folder);
  const std::string verifier = " --verifier checkpoint:" + checkpoint.string();

  const auto flagged = folder.path() / "flagged.jsonl";
  const auto by_flag = run_claimrag("--quiet verify --pairs " + pairs.string() + " --out " + flagged.string() + verifier +
                                        " --labels unsupported,supported",
                                    folder.path());
  ASSERT_EQ(by_flag.exit_code, 0) << by_flag.err;
  expect_supported_is_support(json_lines(flagged), predicted);
  const auto meta = json::parse(slurp(folder.path() / "flagged.meta.json"));
  EXPECT_EQ(meta["verifier"]["checkpoint"]["declared_labels"], json::array({"unsupported", "supported"})) << meta.dump();
  EXPECT_EQ(meta["verifier"]["checkpoint"]["label_map"], json({{"LABEL_0", "NOT_ENOUGH_INFO"}, {"LABEL_1", "SUPPORT"}})) << meta.dump();

  const auto config = folder.write("config.json", json{{"verification", {{"checkpoint", {{"labels", {"unsupported", "supported"}}}}}}}.dump());
  const auto configured = folder.path() / "configured.jsonl";
  const auto by_config = run_claimrag("--quiet verify --pairs " + pairs.string() + " --out " + configured.string() + verifier +
                                          " --config " + config.string(),
                                      folder.path());
  ASSERT_EQ(by_config.exit_code, 0) << by_config.err;
  EXPECT_EQ(slurp(configured), slurp(flagged));
}

TEST(CliDeclaredLabels, EverySubcommandThatVerifiesTakesTheDeclaration) {
  TempFolder folder;
  const auto checkpoint = minicheck_like_checkpoint(folder);
  const std::string verifier = " --verifier checkpoint:" + checkpoint.string() + " --labels unsupported,supported";

  const auto claim = run_claimrag("--quiet verify --data " + kDeclaredLabelsTiny + " --claim 'Aspirin lowers heart disease risk.' --k 2 --json" +
                                      verifier,
                                  folder.path());
  ASSERT_EQ(claim.exit_code, 0) << claim.err;
  for (const auto& document : json::parse(claim.out)["documents"]) EXPECT_EQ(document["probabilities"]["CONTRADICT"], 0.0);

  const auto grounded = folder.path() / "ground.jsonl";
  const auto ground = run_claimrag("--quiet ground --data " + kDeclaredLabelsTiny + " --answers data/fixtures/grounding/answers.jsonl --out " +
                                       grounded.string() + verifier,
                                   folder.path());
  ASSERT_EQ(ground.exit_code, 0) << ground.err;
  EXPECT_EQ(json::parse(slurp(folder.path() / "ground.meta.json"))["verifier"]["checkpoint"]["declared_labels"].size(), 2U);

  const auto sufficient = folder.path() / "sufficiency.jsonl";
  const auto sufficiency = claimrag::testing::run_sufficiency_on_one_example(folder, verifier, sufficient);
  ASSERT_EQ(sufficiency.exit_code, 0) << sufficiency.err;
  EXPECT_EQ(json_lines(sufficient).size(), 1U);

  const auto interrogated = folder.path() / "interrogate.jsonl";
  const auto interrogate = claimrag::testing::run_interrogate_on_one_pair(folder, verifier, interrogated);
  ASSERT_EQ(interrogate.exit_code, 0) << interrogate.err;
  EXPECT_EQ(json_lines(interrogated).size(), 1U);
}

TEST(CliDeclaredLabels, ADeclarationThatCannotApplyIsAUsageErrorWithNothingWritten) {
  TempFolder folder;
  const auto checkpoint = minicheck_like_checkpoint(folder);
  const auto pairs = declared_labels_pairs(folder);
  const auto out = folder.path() / "v.jsonl";
  struct Case {
    std::string flags, says;
  };
  const std::vector<Case> cases{
      {" --verifier checkpoint:" + checkpoint.string() + " --labels contradiction,entailment,neutral", "name 3, but the head of"},
      {" --verifier checkpoint:" + checkpoint.string() + " --labels unsupported,maybe", "'maybe'"},
      {" --verifier checkpoint:" + checkpoint.string() + " --labels supported,supported", "each once"},
      {" --labels unsupported,supported", "checkpoint:DIR"}};
  for (const auto& c : cases) {
    const auto refused = run_claimrag("verify --pairs " + pairs.string() + " --out " + out.string() + c.flags, folder.path());
    EXPECT_EQ(refused.exit_code, 2) << c.flags << "\n" << refused.err;
    EXPECT_NE(refused.err.find(c.says), std::string::npos) << c.flags << "\n" << refused.err;
    EXPECT_FALSE(fs::exists(out)) << c.flags;
    EXPECT_FALSE(fs::exists(folder.path() / "v.meta.json")) << c.flags;
  }
  const auto config = folder.write("bad.json", json{{"verification", {{"checkpoint", {{"labels", {"yes", "no"}}}}}}}.dump());
  const auto configured = run_claimrag("verify --pairs " + pairs.string() + " --out " + out.string() + " --verifier checkpoint:" +
                                           checkpoint.string() + " --config " + config.string(),
                                       folder.path());
  EXPECT_EQ(configured.exit_code, 2) << configured.err;
  EXPECT_NE(configured.err.find("'yes'"), std::string::npos) << configured.err;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
