// evaluate --verification end to end on data/fixtures/tiny-scifact, whose gold is: claim 1 ->
// abstract 11 SUPPORT through {1, 2} or {5}; claim 2 -> abstract 12 CONTRADICT through {0};
// claim 3 no evidence. Relevant: 2 abstracts, 4 sentences.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

namespace {

const std::string kTinyScifact = "data/fixtures/tiny-scifact";

// Claim 1: 11 SUPPORT [1, 2, 4]: label right, {1, 2} within the first 3 -> rationalized; 3
//          sentences retrieved, 2 credited, with the right label.
// Claim 2: 12 SUPPORT [0]: wrong label; 1 sentence retrieved and credited for selection only.
//          13 NOT_ENOUGH_INFO: ignored.
// Claim 3: 13 CONTRADICT [0, 1]: retrieved only.
// Abstracts: retrieved 3, label-only 1, rationalized 1 -> P 1/3, R 1/2, F1 0.4 (both).
// Sentences: retrieved 6, selection 3 -> P 0.5, R 0.75, F1 0.6; label 2 -> P 1/3, R 0.5, F1 0.4.
const std::string kPredictions =
    "{\"id\": 1, \"evidence\": {\"11\": {\"label\": \"SUPPORT\", \"sentences\": [1, 2, 4], "
    "\"probabilities\": {\"SUPPORT\": 0.7, \"CONTRADICT\": 0.2, \"NOT_ENOUGH_INFO\": 0.1}}}}\n"
    "{\"id\": 2, \"evidence\": {\"12\": {\"label\": \"SUPPORT\", \"sentences\": [0]}, "
    "\"13\": {\"label\": \"NOT_ENOUGH_INFO\", \"sentences\": []}}}\n"
    "{\"id\": 3, \"evidence\": {\"13\": {\"label\": \"CONTRADICT\", \"sentences\": [0, 1]}}, \"reason\": \"x\"}\n";

std::string evaluate(const TempFolder& folder, const std::string& predictions, const std::string& extra = "") {
  return "evaluate --verification " + predictions + " --original " + kTinyScifact + " --split dev --out " +
         (folder.path() / "scores").string() + extra;
}

}  // namespace

TEST(CliVerification, ScoresTheOfficialMetricsByHand) {
  TempFolder folder;
  const auto predictions = folder.write("pred.jsonl", kPredictions);
  const auto outcome = run_claimrag(evaluate(folder, predictions.string()), folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(slurp(folder.path() / "scores.tsv"),
            "metric\tprecision\trecall\tf1\tcorrect\tretrieved\trelevant\n"
            "abstract_label_only\t0.333333\t0.500000\t0.400000\t1\t3\t2\n"
            "abstract_rationalized\t0.333333\t0.500000\t0.400000\t1\t3\t2\n"
            "sentence_selection\t0.500000\t0.750000\t0.600000\t3\t6\t4\n"
            "sentence_label\t0.333333\t0.500000\t0.400000\t2\t6\t4\n");
  EXPECT_NE(outcome.out.find("verification\tsentence_selection_f1\t0.600000\n"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("verification\tabstract_rationalized_precision\t0.333333\n"), std::string::npos) << outcome.out;

  const auto json = nlohmann::json::parse(slurp(folder.path() / "scores.json"));
  EXPECT_EQ(json["split"], "dev");
  EXPECT_EQ(json["claims"], 3);
  EXPECT_EQ(json["claims_without_prediction"], 0);
  EXPECT_DOUBLE_EQ(json["metrics"]["sentence_label_recall"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(json["metrics"]["abstract_label_only_f1"].get<double>(), 0.4);
  EXPECT_EQ(json["counts"]["sentence_retrieved"], 6);
  ASSERT_EQ(json["per_claim"].size(), 3u);
  EXPECT_EQ(json["per_claim"][1]["id"], "2");
  EXPECT_EQ(json["per_claim"][1]["sentence_correct_selection"], 1);
  EXPECT_EQ(json["per_claim"][1]["sentence_correct_label"], 0);
}

TEST(CliVerification, AMissingClaimPredictsNothingAndTheCheckPassesOrFails) {
  TempFolder folder;
  // Only claim 1, gold-perfect: abstracts 1/1 retrieved correct of 2 relevant; sentences 3 of 4.
  const auto predictions =
      folder.write("pred.jsonl", "{\"id\": 1, \"evidence\": {\"11\": {\"label\": \"SUPPORT\", \"sentences\": [5, 1, 2]}}}\n");
  const auto expected = folder.write(
      "expected.json",
      R"({"sections": {"verification": {"abstract_label_only_f1": {"value": 0.6666666666666666, "tolerance": 1e-12},
                                         "sentence_selection_precision": {"value": 1.0, "tolerance": 0}},
                       "other": {"sentence_label_recall": {"value": 0.5, "tolerance": 0}}}})");
  const auto passed = run_claimrag(evaluate(folder, predictions.string(), " --check " + expected.string()), folder.path());
  EXPECT_EQ(passed.exit_code, 0) << passed.out << passed.err;
  EXPECT_NE(passed.err.find("2 claims of split dev have no line"), std::string::npos) << passed.err;
  // Sentence label recall is 3/4, not 0.5.
  const auto failed =
      run_claimrag(evaluate(folder, predictions.string(), " --check " + expected.string() + " --section other"), folder.path());
  EXPECT_EQ(failed.exit_code, 1) << failed.out << failed.err;
}

TEST(CliVerification, BadPredictionsNameFileAndLineAndWriteNothing) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"id\": 2, \"evidence\": {\"12\": {\"label\": \"SUPPORT\", \"sentences\": [3]}}}",
       "pred.jsonl:2: claim 2: sentence 3 of document 12 does not exist"},
      {"{\"id\": 2, \"evidence\": {\"77\": {\"label\": \"SUPPORT\", \"sentences\": []}}}",
       "pred.jsonl:2: claim 2: document 77 is not in the corpus"},
      {"{\"id\": 4, \"evidence\": {}}", "pred.jsonl:2: claim 4 is not a claim of split dev"},
      {"{\"id\": 2, \"evidence\": {\"12\": {\"label\": \"REFUTES\", \"sentences\": [0]}}}", "pred.jsonl:2: document 12: unknown label"},
      {"{\"id\": 1, \"evidence\": {}}", "pred.jsonl:2: claim 1 is predicted on an earlier line too"},
      {"{\"id\": 2, \"evidence\": {\"12\": {\"label\": \"SUPPORT\", \"sentences\": [-1]}}}", "pred.jsonl:2: document 12: a sentence index"},
  };
  for (const auto& [line, fragment] : cases) {
    SCOPED_TRACE(line);
    TempFolder folder;
    const auto predictions = folder.write("pred.jsonl", "{\"id\": 1, \"evidence\": {}}\n" + line + "\n");
    const auto outcome = run_claimrag(evaluate(folder, predictions.string()), folder.path());
    EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
    EXPECT_NE(outcome.err.find(fragment), std::string::npos) << outcome.err;
    EXPECT_FALSE(std::filesystem::exists(folder.path() / "scores.tsv"));
    EXPECT_FALSE(std::filesystem::exists(folder.path() / "scores.json"));
  }
}

TEST(CliVerification, TrainSplitAndUsageErrors) {
  TempFolder folder;
  const auto predictions =
      folder.write("pred.jsonl", "{\"id\": 4, \"evidence\": {\"13\": {\"label\": \"SUPPORT\", \"sentences\": [1]}}}\n");
  const std::string out = (folder.path() / "scores").string();
  const auto train = run_claimrag("evaluate --verification " + predictions.string() + " --original " + kTinyScifact +
                                      " --split train --out " + out,
                                  folder.path());
  ASSERT_EQ(train.exit_code, 0) << train.err;
  EXPECT_NE(train.out.find("verification\tabstract_rationalized_f1\t1.000000\n"), std::string::npos) << train.out;
  EXPECT_NE(train.out.find("verification\tsentence_label_f1\t1.000000\n"), std::string::npos) << train.out;

  const auto unknown_split = run_claimrag(
      "evaluate --verification " + predictions.string() + " --original " + kTinyScifact + " --split fold1 --out " + out + "x", folder.path());
  EXPECT_EQ(unknown_split.exit_code, 2) << unknown_split.err;
  const auto no_original =
      run_claimrag("evaluate --verification " + predictions.string() + " --split dev --out " + out + "x", folder.path());
  EXPECT_EQ(no_original.exit_code, 2) << no_original.err;
  const auto with_run = run_claimrag("evaluate --verification " + predictions.string() + " --run x.trec --original " + kTinyScifact +
                                         " --split dev --out " + out + "x",
                                     folder.path());
  EXPECT_EQ(with_run.exit_code, 2) << with_run.err;
  EXPECT_FALSE(std::filesystem::exists(out + "x.tsv"));
}
