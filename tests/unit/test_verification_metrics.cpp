// SciFact's official verification metrics on hand-built claims whose counts are worked out in
// the comments, then on the real dev claims (skipped when data/scifact is absent).

#include <gtest/gtest.h>

#include <filesystem>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/error.hpp"
#include "claimrag/verification/gold.hpp"
#include "claimrag/verification/official_metrics.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using verification::ClaimPrediction;
using verification::DocumentPrediction;
using verification::Label;
using verification::VerificationCounts;

namespace {

// Claim "G": abstract A supports it through {1, 2} or {5}; abstract B contradicts it through {0}.
// Relevant: 2 abstracts, 3 + 1 = 4 sentences.
dataset::Claim gold_claim() {
  dataset::Claim claim;
  claim.id = "G";
  claim.text = "g";
  claim.evidence["A"] = {{{1, 2}, "SUPPORT"}, {{5}, "SUPPORT"}};
  claim.evidence["B"] = {{{0}, "CONTRADICT"}};
  return claim;
}

DocumentPrediction document(std::string doc_id, Label label, std::vector<std::size_t> sentences) {
  DocumentPrediction prediction;
  prediction.doc_id = std::move(doc_id);
  prediction.label = label;
  prediction.sentences = std::move(sentences);
  return prediction;
}

VerificationCounts counts_of(std::vector<DocumentPrediction> documents) {
  const ClaimPrediction prediction{"G", std::move(documents), std::nullopt};
  return verification::count_claim(&prediction, gold_claim());
}

/// relevant 2 abstracts and 4 sentences, then the given retrieved / correct counts.
VerificationCounts expected(std::size_t abstracts_retrieved, std::size_t label_only, std::size_t rationalized,
                            std::size_t sentences_retrieved, std::size_t selection, std::size_t label) {
  return {2, abstracts_retrieved, label_only, rationalized, 4, sentences_retrieved, selection, label};
}

std::filesystem::path dev_claims_file() {
  return std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/original/claims_dev.jsonl";
}

/// The gold prediction of every claim, every label replaced by `label` unless it is NEI.
std::vector<ClaimPrediction> gold_predictions(const std::vector<dataset::Claim>& claims, Label label) {
  std::vector<ClaimPrediction> predictions;
  for (const auto& claim : claims) {
    predictions.push_back(verification::gold_prediction(claim));
    if (label == Label::not_enough_info) continue;
    for (auto& document : predictions.back().documents) document.label = label;
  }
  return predictions;
}

}  // namespace

TEST(VerificationMetrics, ExactGoldScoresEveryCount) {
  // {5} sits in the first 3 sentences, so the abstract is rationalized; sentences 1, 2, 5, 0 all
  // complete their sets.
  EXPECT_EQ(counts_of({document("A", Label::support, {5, 1, 2}), document("B", Label::contradict, {0})}),
            expected(2, 2, 2, 4, 4, 4));
}

TEST(VerificationMetrics, PartialRationaleSetEarnsNoSentenceCreditAndNoRationale) {
  // {1} alone: half of {1, 2}. The label is right (label-only), but no set is complete.
  EXPECT_EQ(counts_of({document("A", Label::support, {1})}), expected(1, 1, 0, 1, 0, 0));
}

TEST(VerificationMetrics, WrongLabelKeepsSelectionButLosesLabelCredit) {
  // B predicted SUPPORT (gold CONTRADICT) with its whole set {0}.
  EXPECT_EQ(counts_of({document("B", Label::support, {0})}), expected(1, 0, 0, 1, 1, 0));
}

TEST(VerificationMetrics, AFourthSentenceCountsAtSentenceLevelOnly) {
  // {7, 8, 1, 2}: the first three {7, 8, 1} hold no whole set; all four hold {1, 2}.
  EXPECT_EQ(counts_of({document("A", Label::support, {7, 8, 1, 2})}), expected(1, 1, 0, 4, 2, 2));
  // The same with {5} fourth: 5 is credited at sentence level, the abstract is not rationalized.
  EXPECT_EQ(counts_of({document("A", Label::support, {7, 8, 9, 5})}), expected(1, 1, 0, 4, 1, 1));
  // Prediction order matters, not index order: {5} first is inside the cap.
  EXPECT_EQ(counts_of({document("A", Label::support, {5, 7, 8, 9})}), expected(1, 1, 1, 4, 1, 1));
}

TEST(VerificationMetrics, NotEnoughInfoEntriesAreIgnored) {
  EXPECT_EQ(counts_of({document("A", Label::not_enough_info, {1, 2}), document("Z", Label::not_enough_info, {3})}),
            expected(0, 0, 0, 0, 0, 0));
}

TEST(VerificationMetrics, NonEvidenceDocumentIsRetrievedOnly) {
  EXPECT_EQ(counts_of({document("Z", Label::support, {1, 2})}), expected(1, 0, 0, 2, 0, 0));
  // Its sentences never count, even with indices of a gold set of another document.
  EXPECT_EQ(counts_of({document("Z", Label::contradict, {0}), document("B", Label::contradict, {})}),
            expected(2, 1, 0, 1, 0, 0));
}

TEST(VerificationMetrics, PooledScoresByHand) {
  // Claim G: A SUPPORT {1, 2, 9} (rationalized; 2 of 3 sentences credited), B SUPPORT {0} (wrong
  // label: selection 1, label 0), Z CONTRADICT {4} (retrieved only).
  // Claim H (no gold evidence): Y SUPPORT {0, 1} (retrieved only).
  // Claim I (gold C CONTRADICT {3}): no prediction line at all.
  dataset::Claim h{"H", "h", {}, {}};
  dataset::Claim i{"I", "i", {}, {}};
  i.evidence["C"] = {{{3}, "CONTRADICT"}};
  const std::vector<dataset::Claim> gold{gold_claim(), h, i};
  const std::vector<ClaimPrediction> predictions{
      {"H", {document("Y", Label::support, {0, 1})}, std::nullopt},
      {"G",
       {document("A", Label::support, {1, 2, 9}), document("B", Label::support, {0}), document("Z", Label::contradict, {4})},
       std::nullopt}};
  const auto metrics = verification::score_predictions(predictions, gold);

  EXPECT_EQ(metrics.claim_ids, (std::vector<std::string>{"G", "H", "I"}));
  EXPECT_EQ(metrics.claims_without_prediction, 1u);
  EXPECT_EQ(metrics.per_claim[0], (VerificationCounts{2, 3, 1, 1, 4, 5, 3, 2}));
  EXPECT_EQ(metrics.per_claim[1], (VerificationCounts{0, 1, 0, 0, 0, 2, 0, 0}));
  EXPECT_EQ(metrics.per_claim[2], (VerificationCounts{1, 0, 0, 0, 1, 0, 0, 0}));
  // Pooled: abstracts relevant 3, retrieved 4, label-only 1, rationalized 1;
  //         sentences relevant 5, retrieved 7, selection 3, label 2.
  EXPECT_EQ(metrics.counts, (VerificationCounts{3, 4, 1, 1, 5, 7, 3, 2}));
  EXPECT_DOUBLE_EQ(metrics.scores.abstract_label_only.precision, 1.0 / 4.0);
  EXPECT_DOUBLE_EQ(metrics.scores.abstract_label_only.recall, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(metrics.scores.abstract_label_only.f1, 2.0 / 7.0);  // 2 (1/4)(1/3) / (7/12)
  EXPECT_DOUBLE_EQ(metrics.scores.abstract_rationalized.f1, 2.0 / 7.0);
  EXPECT_DOUBLE_EQ(metrics.scores.sentence_selection.precision, 3.0 / 7.0);
  EXPECT_DOUBLE_EQ(metrics.scores.sentence_selection.recall, 3.0 / 5.0);
  EXPECT_DOUBLE_EQ(metrics.scores.sentence_selection.f1, 0.5);  // 2 (3/7)(3/5) / (36/35)
  EXPECT_DOUBLE_EQ(metrics.scores.sentence_label.precision, 2.0 / 7.0);
  EXPECT_DOUBLE_EQ(metrics.scores.sentence_label.recall, 2.0 / 5.0);
  EXPECT_DOUBLE_EQ(metrics.scores.sentence_label.f1, 1.0 / 3.0);  // 2 (2/7)(2/5) / (24/35)
  EXPECT_EQ(metrics.documents_over_sentence_cap, 0u);
}

TEST(VerificationMetrics, EmptyPredictionsScoreZeroNotNaN) {
  const std::vector<dataset::Claim> gold{gold_claim()};
  const auto metrics = verification::score_predictions({}, gold);
  EXPECT_EQ(metrics.claims_without_prediction, 1u);
  EXPECT_EQ(metrics.counts, expected(0, 0, 0, 0, 0, 0));
  EXPECT_EQ(metrics.scores.abstract_label_only.precision, 0.0);
  EXPECT_EQ(metrics.scores.abstract_label_only.recall, 0.0);
  EXPECT_EQ(metrics.scores.sentence_label.f1, 0.0);
  // No gold and no prediction: every denominator is 0, every number 0.
  const auto nothing = verification::score_predictions({}, {});
  EXPECT_EQ(nothing.scores.sentence_selection.precision, 0.0);
  EXPECT_EQ(nothing.scores.sentence_selection.recall, 0.0);
  EXPECT_EQ(nothing.scores.sentence_selection.f1, 0.0);
}

TEST(VerificationMetrics, CountsOverTheCapAndRefusesUnknownOrRepeatedClaims) {
  const std::vector<dataset::Claim> gold{gold_claim()};
  const std::vector<ClaimPrediction> long_rationale{{"G",
                                                     {document("A", Label::support, {1, 2, 3, 4}),
                                                      document("B", Label::not_enough_info, {1, 2, 3, 4})},
                                                     std::nullopt}};
  EXPECT_EQ(verification::score_predictions(long_rationale, gold).documents_over_sentence_cap, 1u);

  ClaimPrediction stranger{"Q", {}, std::nullopt};
  stranger.line = 7;
  claimrag::testing::expect_error<DataError>([&] { (void)verification::score_predictions(std::vector{stranger}, gold); },
                                   "line 7: prediction for claim Q, which is not among the gold claims");
  const std::vector<ClaimPrediction> twice{{"G", {}, std::nullopt}, {"G", {}, std::nullopt}};
  claimrag::testing::expect_error<DataError>([&] { (void)verification::score_predictions(twice, gold); }, "claim G is predicted twice");
  auto mixed = gold_claim();
  mixed.evidence["B"].push_back({{4}, "SUPPORT"});
  claimrag::testing::expect_error<DataError>([&] { (void)verification::count_claim(nullptr, mixed); }, "disagree on the label");
}

TEST(VerificationMetrics, ZeroDenominatorsGiveZero) {
  const auto none = verification::precision_recall_f1(0, 0, 0);
  EXPECT_EQ(none.precision, 0.0);
  EXPECT_EQ(none.recall, 0.0);
  EXPECT_EQ(none.f1, 0.0);
  const auto half = verification::precision_recall_f1(1, 2, 0);
  EXPECT_EQ(half.precision, 0.5);
  EXPECT_EQ(half.recall, 0.0);
  EXPECT_EQ(half.f1, 0.0);
}

TEST(VerificationMetricsDev, GoldAsPredictionScoresOneWithTheOfficialDenominators) {
  if (!std::filesystem::exists(dev_claims_file())) GTEST_SKIP() << "no SciFact data at " << dev_claims_file();
  const auto claims = dataset::load_claims(dev_claims_file());
  const auto metrics = verification::score_predictions(gold_predictions(claims, Label::not_enough_info), claims);
  EXPECT_EQ(metrics.counts.abstract_relevant, 209u);
  EXPECT_EQ(metrics.counts.sentence_relevant, 366u);
  EXPECT_EQ(metrics.counts, (VerificationCounts{209, 209, 209, 209, 366, 366, 366, 366}));
  for (const auto& score : {metrics.scores.abstract_label_only, metrics.scores.abstract_rationalized,
                            metrics.scores.sentence_selection, metrics.scores.sentence_label}) {
    EXPECT_EQ(score.precision, 1.0);
    EXPECT_EQ(score.recall, 1.0);
    EXPECT_EQ(score.f1, 1.0);
  }
  EXPECT_EQ(metrics.claims_without_prediction, 0u);
}

TEST(VerificationMetricsDev, AlwaysSupportWithGoldSelectionScoresTheShareOfSupport) {
  if (!std::filesystem::exists(dev_claims_file())) GTEST_SKIP() << "no SciFact data at " << dev_claims_file();
  const auto claims = dataset::load_claims(dev_claims_file());
  std::size_t documents = 0, supported = 0, supported_sentences = 0;
  for (const auto& claim : claims) {
    for (const auto& [doc_id, sets] : claim.evidence) {
      ++documents;
      if (sets.front().label != "SUPPORT") continue;
      ++supported;
      for (const auto& set : sets) supported_sentences += set.sentences.size();
    }
  }
  const auto metrics = verification::score_predictions(gold_predictions(claims, Label::support), claims);
  const double share = static_cast<double>(supported) / static_cast<double>(documents);
  EXPECT_EQ(metrics.counts.abstract_correct_label_only, supported);
  EXPECT_EQ(metrics.scores.abstract_label_only.precision, share);
  EXPECT_EQ(metrics.scores.abstract_label_only.recall, share);
  EXPECT_EQ(metrics.scores.abstract_rationalized.recall, share);
  // Selection ignores the label; Selection+Label keeps the SUPPORT abstracts' sentences.
  EXPECT_EQ(metrics.scores.sentence_selection.f1, 1.0);
  EXPECT_EQ(metrics.counts.sentence_correct_label, supported_sentences);
  EXPECT_NEAR(share, 0.66, 0.005);  // DESIGN.md's fact: SUPPORT on 66 % of the dev evidence pairs
}

TEST(VerificationGold, LabelsAndThePerfectPredictionByHand) {
  const auto claim = gold_claim();
  EXPECT_EQ(verification::gold_label(claim, "A"), Label::support);
  EXPECT_EQ(verification::gold_label(claim, "B"), Label::contradict);
  claimrag::testing::expect_error<DataError>([&] { (void)verification::gold_label(claim, "Z"); },
                                             "claim G: document Z has no gold rationale set");
  const auto prediction = verification::gold_prediction(claim);
  EXPECT_EQ(prediction.claim_id, "G");
  ASSERT_EQ(prediction.documents.size(), 2u);
  EXPECT_EQ(prediction.documents[0].doc_id, "A");
  EXPECT_EQ(prediction.documents[0].sentences, (std::vector<std::size_t>{1, 2, 5}));
  EXPECT_EQ(prediction.documents[1].label, Label::contradict);
  EXPECT_EQ(verification::count_claim(&prediction, claim), expected(2, 2, 2, 4, 4, 4));
}
