// The grounding checkers from the command line: `--checker minicheck` on a MiniCheck-shaped folder
// (labels read as unsupported / supported, chunks in the output, never CONTRADICT), its refusals,
// `calibrate` choosing a threshold on labelled pairs and writing a rule `verify` then decides by,
// and `evaluate --pairs` scoring balanced accuracy per dataset in LLM-AggreFact's layout.

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"
#include "support/verifying_runs.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::json_lines;
using claimrag::testing::kModels;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;
using nlohmann::json;

const std::string kMiniCheckRoberta = " --verifier checkpoint:" + kModels + "real-minicheck-roberta-large";

const std::vector<std::string> kCheckerEvidence{
    "Daily low-dose aspirin reduced the risk of a first myocardial infarction by 44 percent. Aspirin did not change "
    "the risk of stroke.",
    "Vitamin D3 at 2000 IU per day did not lower the risk of hip fractures.\n\nFalls were more frequent in the "
    "treated group.",
    "Smokers had a 15-fold higher risk of lung cancer than never smokers.",
    "Coffee drinkers had a lower risk of type 2 diabetes in three cohorts.",
};
const std::vector<std::string> kCheckerClaims{
    "Aspirin lowers the risk of a first heart attack.", "Vitamin D prevents fractures in older adults.",
    "Smoking raises lung cancer risk.", "Coffee raises the risk of diabetes.", "Exercise lowers blood pressure."};

// Every claim against every evidence, labelled 1 when the claim's own evidence (same index) is
// given and its label says so; `dataset` alternates between two names (LLM-AggreFact's layout).
fs::path labelled_pairs(const TempFolder& folder) {
  std::ostringstream lines;
  const std::vector<int> own_label{1, 0, 1, 0, 0};
  for (std::size_t c = 0; c < kCheckerClaims.size(); ++c) {
    for (std::size_t e = 0; e < kCheckerEvidence.size(); ++e) {
      const int label = c == e ? own_label[c] : 0;
      lines << json{{"doc", kCheckerEvidence[e]}, {"claim", kCheckerClaims[c]}, {"label", label},
                    {"dataset", e % 2 == 0 ? "first" : "second"}}
                   .dump()
            << "\n";
    }
  }
  return folder.write("labelled.jsonl", lines.str());
}

fs::path plain_pairs(const TempFolder& folder) {
  std::ostringstream lines;
  std::size_t id = 0;
  for (const auto& claim : kCheckerClaims) {
    for (const auto& evidence : kCheckerEvidence) {
      lines << json{{"id", "p" + std::to_string(id++)}, {"claim", claim}, {"evidence", evidence}}.dump() << "\n";
    }
  }
  return folder.write("pairs.jsonl", lines.str());
}

TEST(CliCheckers, MiniCheckReadsChunksAndNeverContradicts) {
  TempFolder folder;
  const auto out = folder.path() / "v.jsonl";
  const auto run = run_claimrag("--quiet verify --pairs " + plain_pairs(folder).string() + " --out " + out.string() +
                                    kMiniCheckRoberta + " --checker minicheck",
                                folder.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto verdicts = json_lines(out);
  ASSERT_EQ(verdicts.size(), kCheckerClaims.size() * kCheckerEvidence.size());
  for (const auto& verdict : verdicts) {
    ASSERT_TRUE(verdict.contains("chunks")) << verdict.dump();
    EXPECT_NE(verdict["label"], "CONTRADICT");
    EXPECT_EQ(verdict["probabilities"]["CONTRADICT"], 0.0);
    double best = 0.0;
    for (const auto& chunk : verdict["chunks"]) best = std::max(best, chunk["score"].get<double>());
    EXPECT_DOUBLE_EQ(verdict["probabilities"]["SUPPORT"].get<double>(), best) << verdict.dump();
    EXPECT_EQ(verdict["label"] == "SUPPORT", best > 0.5) << verdict.dump();
  }
  // The second evidence's blank line survives in its chunk, as the reference keeps it.
  bool kept_blank_line = false;
  for (const auto& chunk : verdicts[1]["chunks"]) kept_blank_line |= chunk["text"].get<std::string>().find("\n\n") != std::string::npos;
  EXPECT_TRUE(kept_blank_line) << verdicts[1].dump();
  const auto meta = json::parse(slurp(folder.path() / "v.meta.json"));
  EXPECT_EQ(meta["verifier"]["rule"]["checker"], "minicheck") << meta.dump();
  EXPECT_EQ(meta["verifier"]["rule"]["chunk_size"], 400) << meta.dump();
  EXPECT_EQ(meta["verifier"]["rule"]["chunk_count"], "tokens") << meta.dump();
  EXPECT_EQ(meta["verifier"]["checkpoint"]["label_map"], json({{"LABEL_0", "NOT_ENOUGH_INFO"}, {"LABEL_1", "SUPPORT"}}));
}

TEST(CliCheckers, FlanT5ReadsWordChunksAfterItsPrefixThroughItsLabelTokens) {
  TempFolder folder;
  const auto out = folder.path() / "t5.jsonl";
  const std::string t5 = " --verifier checkpoint:" + kModels + "real-flan-t5-large";
  const auto run = run_claimrag("--quiet verify --pairs " + plain_pairs(folder).string() + " --out " + out.string() + t5 +
                                    " --checker minicheck",
                                folder.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const auto& verdict : json_lines(out)) {
    ASSERT_FALSE(verdict["chunks"].empty()) << verdict.dump();
    EXPECT_NE(verdict["label"], "CONTRADICT");
  }
  const auto rule = json::parse(slurp(folder.path() / "t5.meta.json"))["verifier"]["rule"];
  EXPECT_EQ(rule["chunk_count"], "words") << rule.dump();
  EXPECT_EQ(rule["chunk_size"], 500) << rule.dump();
  EXPECT_EQ(rule["prefix"], "predict: ") << rule.dump();
  EXPECT_EQ(rule["label_tokens"], json::array({3, 209})) << rule.dump();
  // The NLI rule has no label tokens to give a T5 folder: refused, nothing written.
  const auto refused = run_claimrag("verify --pairs " + (folder.path() / "pairs.jsonl").string() + " --out " +
                                        (folder.path() / "nli.jsonl").string() + t5,
                                    folder.path());
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("label tokens"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(folder.path() / "nli.jsonl"));
}

TEST(CliCheckers, RefusesWhatNoCheckerReads) {
  TempFolder folder;
  const auto pairs = plain_pairs(folder);
  const auto out = folder.path() / "v.jsonl";
  for (const std::string& flags : {kMiniCheckRoberta + " --checker summac", kMiniCheckRoberta + " --checker minicheck --chunk-size 0",
                                   kMiniCheckRoberta + " --checker minicheck --chunk-size 900",
                                   kMiniCheckRoberta + " --labels unsupported,supported --chunk-size 40",
                                   std::string(" --checker minicheck")}) {
    const auto refused = run_claimrag("verify --pairs " + pairs.string() + " --out " + out.string() + flags, folder.path());
    EXPECT_EQ(refused.exit_code, 2) << flags << "\n" << refused.err;
    EXPECT_FALSE(fs::exists(out)) << flags;
  }
}

TEST(CliCheckers, CalibrateWritesARuleVerifyDecidesBy) {
  TempFolder folder;
  const auto rule = folder.path() / "rule.json";
  const auto run = run_claimrag("--quiet calibrate --pairs " + labelled_pairs(folder).string() + " --out " + rule.string() +
                                    kMiniCheckRoberta + " --checker minicheck --folds 3",
                                folder.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto written = json::parse(slurp(rule));
  const double threshold = written["verification"]["checkpoint"]["threshold"].get<double>();
  EXPECT_EQ(written["verification"]["checkpoint"]["checker"], "minicheck");
  EXPECT_EQ(written["grounding"]["support_threshold"].get<double>(), threshold);
  const auto report = json::parse(slurp(folder.path() / "rule.calibration.json"));
  EXPECT_EQ(report["threshold"].get<double>(), threshold);
  EXPECT_EQ(report["metric"], "balanced_accuracy");
  EXPECT_EQ(report["pairs"]["count"], 20);
  EXPECT_EQ(report["pairs"]["claims"], 5);
  EXPECT_EQ(report["cross_validation"]["fold_thresholds"].size(), 3U);
  const double score = report["cross_validation"]["score"].get<double>();
  EXPECT_LE(report["cross_validation"]["interval_95"][0].get<double>(), score);
  EXPECT_GE(report["cross_validation"]["interval_95"][1].get<double>(), score);
  EXPECT_GE(report["in_sample"]["score_at_threshold"].get<double>(), report["in_sample"]["score_at_default_0.5"].get<double>());

  // verify with the rule as its configuration labels SUPPORT exactly above the threshold.
  const auto out = folder.path() / "v.jsonl";
  const auto verified = run_claimrag("--quiet verify --pairs " + plain_pairs(folder).string() + " --out " + out.string() +
                                         kMiniCheckRoberta + " --config " + rule.string(),
                                     folder.path());
  ASSERT_EQ(verified.exit_code, 0) << verified.err;
  for (const auto& verdict : json_lines(out)) {
    EXPECT_EQ(verdict["label"] == "SUPPORT", verdict["probabilities"]["SUPPORT"].get<double>() > threshold) << verdict.dump();
  }
  // The same inputs give the same bytes.
  const auto again = folder.path() / "again.json";
  ASSERT_EQ(run_claimrag("--quiet calibrate --pairs " + (folder.path() / "labelled.jsonl").string() + " --out " + again.string() +
                             kMiniCheckRoberta + " --checker minicheck --folds 3",
                         folder.path())
                .exit_code,
            0);
  EXPECT_EQ(slurp(again), slurp(rule));
}

TEST(CliCheckers, FromAUsersOwnFolderWithRelativePaths) {
  // A user's folder, not the repository: the pairs, the rule and the verdicts named relative to it,
  // the checker by its absolute path.
  TempFolder folder;
  (void)labelled_pairs(folder);
  (void)plain_pairs(folder);
  const std::string checker =
      " --verifier checkpoint:" + (fs::path(CLAIMRAG_SOURCE_DIR) / kModels / "real-minicheck-roberta-large").string() +
      " --checker minicheck";
  const auto calibrated =
      run_claimrag("--quiet calibrate --pairs labelled.jsonl --out rule.json --folds 3" + checker, folder.path(), folder.path());
  ASSERT_EQ(calibrated.exit_code, 0) << calibrated.err;
  const auto verified = run_claimrag("--quiet verify --pairs pairs.jsonl --out verdicts.jsonl --config rule.json" + checker,
                                     folder.path(), folder.path());
  ASSERT_EQ(verified.exit_code, 0) << verified.err;
  EXPECT_EQ(json_lines(folder.path() / "verdicts.jsonl").size(), kCheckerClaims.size() * kCheckerEvidence.size());
  EXPECT_TRUE(fs::exists(folder.path() / "rule.calibration.json"));
  EXPECT_TRUE(fs::exists(folder.path() / "verdicts.meta.json"));
}

TEST(CliCheckers, CalibrateRefusesAVerifierWithoutAThresholdAndWritesNothing) {
  TempFolder folder;
  const auto rule = folder.path() / "rule.json";
  const auto refused = run_claimrag("calibrate --pairs " + labelled_pairs(folder).string() + " --out " + rule.string() +
                                        " --verifier builtin",
                                    folder.path());
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("calibrate chooses the threshold"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(rule));
  const auto bad = folder.write("bad.jsonl", "{\"doc\": \"x\", \"claim\": \"y\", \"label\": 2}\n");
  const auto data_error = run_claimrag("calibrate --pairs " + bad.string() + " --out " + rule.string() + kMiniCheckRoberta +
                                           " --checker minicheck",
                                       folder.path());
  EXPECT_EQ(data_error.exit_code, 3) << data_error.err;
  EXPECT_NE(data_error.err.find("bad.jsonl:1"), std::string::npos) << data_error.err;
  EXPECT_FALSE(fs::exists(rule));
}

TEST(CliCheckers, EvaluatePairsScoresBalancedAccuracyPerDataset) {
  TempFolder folder;
  const auto labelled = labelled_pairs(folder);
  const auto prefix = (folder.path() / "scores").string();
  const auto run = run_claimrag("--quiet evaluate --pairs " + labelled.string() + " --out " + prefix + kMiniCheckRoberta +
                                    " --checker minicheck --chunk-size 16",
                                folder.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // Recomputed here from verify's own verdicts on the same pairs.
  const auto out = folder.path() / "v.jsonl";
  ASSERT_EQ(run_claimrag("--quiet verify --pairs " + plain_pairs(folder).string() + " --out " + out.string() + kMiniCheckRoberta +
                             " --checker minicheck --chunk-size 16",
                         folder.path())
                .exit_code,
            0);
  const auto verdicts = json_lines(out);
  const auto gold = json_lines(labelled);
  std::map<std::string, std::array<std::array<int, 2>, 2>> counts;  // [dataset][gold][predicted supported]
  for (std::size_t i = 0; i < gold.size(); ++i) {
    const int g = gold[i]["label"].get<int>();
    const int p = verdicts[i]["label"] == "SUPPORT" ? 1 : 0;
    ++counts[gold[i]["dataset"].get<std::string>()][static_cast<std::size_t>(g)][static_cast<std::size_t>(p)];
  }
  const auto scores = json::parse(slurp(prefix + ".json"));
  ASSERT_EQ(scores["datasets"].size(), 2U);
  double sum = 0.0;
  for (const auto& dataset : scores["datasets"]) {
    const auto& c = counts.at(dataset["dataset"].get<std::string>());
    double recall_sum = 0.0;
    int classes = 0;
    for (int g = 0; g < 2; ++g) {
      const int total = c[g][0] + c[g][1];
      if (total == 0) continue;
      recall_sum += static_cast<double>(c[g][g]) / total;
      ++classes;
    }
    const double expected = recall_sum / classes;
    EXPECT_NEAR(dataset["balanced_accuracy"].get<double>(), expected, 1e-12) << dataset.dump();
    sum += expected;
  }
  EXPECT_NEAR(scores["mean_over_datasets"].get<double>(), sum / 2, 1e-12);
  EXPECT_TRUE(fs::exists(prefix + ".tsv"));
  EXPECT_NE(run.out.find("mean over datasets\tbalanced_accuracy"), std::string::npos) << run.out;
}

}  // namespace
