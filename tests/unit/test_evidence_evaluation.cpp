// Scoring evidence selections against pseudo-gold sentences and gold rationales, by hand.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "claimrag/experiment/evidence/evidence_evaluation.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;

namespace {

evidence::SelectedSentence chosen(evidence::SentenceRef sentence) { return {std::move(sentence), 0.5, 0.1, 1}; }

struct HandCase {
  std::vector<experiment::ClaimGold> gold;
  std::vector<evidence::ClaimEvidence> selections;
};

// A: top-1 right, top-2 adds a wrong sentence; B: top-1 wrong, top-2 right; C: missing; Z: not in the split.
HandCase hand_case() {
  const evidence::SentenceRef a0{"d1", 0, "alpha beta", 0, 10}, a1{"d1", 1, "epsilon", 11, 18};
  const evidence::SentenceRef b0{"d2", 0, "gamma", 0, 5}, b1{"d2", 1, "gamma delta", 6, 17};
  HandCase hand;
  hand.gold = {{"A", {a0}, std::vector<metrics::RationaleSpan>{{"d1", 0, 10}}},
               {"B", {b1}, std::nullopt},
               {"C", {{"d3", 0, "x y", 0, 3}}, std::nullopt}};
  hand.selections = {{"A", "claim a", 2, {chosen(a0), chosen(a1)}, ""},
                     {"B", "claim b", 2, {chosen(b0), chosen(b1)}, ""},
                     {"Z", "claim z", 1, {chosen(a0)}, ""}};
  return hand;
}

}  // namespace

TEST(EvidenceEvaluation, MeansByHandOverTheSplitsClaims) {
  const auto hand = hand_case();
  const auto evaluation = experiment::score_evidence(hand.gold, hand.selections);
  EXPECT_EQ(evaluation.claim_ids, (std::vector<std::string>{"A", "B", "C"}));
  EXPECT_EQ(evaluation.claims_missing_from_selections, 1u);
  EXPECT_EQ(evaluation.selections_outside_split, 1u);
  EXPECT_EQ(evaluation.claims_with_rationales, 1u);
  // Exact: A 1 and 2/3 (P 1/2, R 1); B 0 and 2/3; C 0 and 0.
  EXPECT_DOUBLE_EQ(evaluation.mean.at("exact_f1@1"), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(evaluation.mean.at("exact_f1@2"), (2.0 / 3.0 + 2.0 / 3.0) / 3.0);
  // Tokens: A@1 1; A@2 {alpha beta epsilon} vs {alpha beta}: P 2/3, R 1 -> 0.8.
  // B@1 {gamma} vs {gamma delta}: P 1, R 1/2 -> 2/3; B@2 {gamma gamma delta}: common 2, P 2/3, R 1 -> 0.8.
  EXPECT_DOUBLE_EQ(evaluation.mean.at("token_f1@1"), (1.0 + 2.0 / 3.0) / 3.0);
  EXPECT_NEAR(evaluation.mean.at("token_f1@2"), 1.6 / 3.0, 1e-15);
  // Rationales: only A has gold evidence; its top-2 holds one sentence off the span.
  EXPECT_DOUBLE_EQ(evaluation.mean.at("rationale_precision@1"), 1.0);
  EXPECT_DOUBLE_EQ(evaluation.mean.at("rationale_precision@2"), 0.5);
  EXPECT_DOUBLE_EQ(evaluation.mean.at("rationale_recall@2"), 1.0);
  EXPECT_DOUBLE_EQ(evaluation.mean.at("rationale_f1@2"), 2.0 / 3.0);
  EXPECT_FALSE(evaluation.per_claim[1].contains("rationale_f1@1"));
  EXPECT_EQ(evaluation.per_claim[2].at("token_f1@2"), 0.0);
}

TEST(EvidenceEvaluation, NoGoldEvidenceMeansNoRationaleMeans) {
  auto hand = hand_case();
  hand.gold[0].rationales.reset();
  const auto evaluation = experiment::score_evidence(hand.gold, hand.selections);
  EXPECT_FALSE(evaluation.mean.contains("rationale_f1@1"));
  EXPECT_EQ(evaluation.claims_with_rationales, 0u);
}

TEST(EvidenceEvaluation, WritesTsvWithNaAndThePapersRowAndJson) {
  claimrag::testing::TempFolder folder;
  const auto hand = hand_case();
  const auto evaluation = experiment::score_evidence(hand.gold, hand.selections);
  const std::map<std::string, double> paper{{"exact_f1@1", 0.021909}, {"exact_f1@2", 0.029819}, {"token_f1@1", 0.159443},
                                            {"token_f1@2", 0.190277}};
  experiment::write_evidence_evaluation(evaluation, "e.jsonl", "test", folder.path() / "scores.tsv", &paper);
  const std::string tsv = io::read_file(folder.path() / "scores.tsv");
  EXPECT_EQ(tsv.substr(0, tsv.find('\n')),
            "claim_id\texact_f1@1\texact_f1@2\ttoken_f1@1\ttoken_f1@2\trationale_precision@1\trationale_precision@2\t"
            "rationale_recall@1\trationale_recall@2\trationale_f1@1\trationale_f1@2");
  EXPECT_NE(tsv.find("\nB\t0.000000\t0.666667\t0.666667\t0.800000\tNA\tNA\tNA\tNA\tNA\tNA\n"), std::string::npos);
  EXPECT_NE(tsv.find("\npaper\t0.021909\t0.029819\t0.159443\t0.190277\tNA\t"), std::string::npos);
  const auto json = nlohmann::json::parse(io::read_file(folder.path() / "scores.json"));
  EXPECT_DOUBLE_EQ(json["metrics"]["exact_f1@1"].get<double>(), 1.0 / 3.0);
  EXPECT_EQ(json["claims_missing_from_selections"].get<int>(), 1);
  EXPECT_DOUBLE_EQ(json["paper"]["token_f1@2"].get<double>(), 0.190277);
}

// A dataset without a paper file gets no paper row and no "paper" object.
TEST(EvidenceEvaluation, WithoutPaperNumbersThereIsNoPaperRow) {
  claimrag::testing::TempFolder folder;
  const auto hand = hand_case();
  experiment::write_evidence_evaluation(experiment::score_evidence(hand.gold, hand.selections), "e.jsonl", "test",
                                        folder.path() / "scores.tsv");
  EXPECT_EQ(io::read_file(folder.path() / "scores.tsv").find("\npaper\t"), std::string::npos);
  EXPECT_FALSE(nlohmann::json::parse(io::read_file(folder.path() / "scores.json")).contains("paper"));
}
