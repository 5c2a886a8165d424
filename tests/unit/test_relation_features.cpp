// Relation features of (claim, evidence) on small texts whose values are counted by hand in
// the comments, and their agreement with the negation rewriter.

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "claimrag/text/negation.hpp"
#include "claimrag/text/relation_features.hpp"

using claimrag::text::kRelationFeatureCount;
using claimrag::text::relation_feature_names;
using claimrag::text::relation_features;
using claimrag::text::RelationFeature;
using F = RelationFeature;

namespace {

double feature(std::string_view claim, std::string_view evidence, RelationFeature which,
               const claimrag::text::RelationFeatureOptions& options = {}) {
  return relation_features(claim, evidence, options).at(static_cast<std::size_t>(which));
}

}  // namespace

TEST(RelationFeatures, NamesAreStableAndInEnumOrder) {
  const auto names = relation_feature_names();
  ASSERT_EQ(names.size(), 15u);
  EXPECT_EQ(names[static_cast<std::size_t>(F::claim_negation_count)], "claim_negation_count");
  EXPECT_EQ(names[static_cast<std::size_t>(F::negation_mismatch)], "negation_mismatch");
  EXPECT_EQ(names[static_cast<std::size_t>(F::null_mismatch)], "null_mismatch");
  EXPECT_EQ(names[static_cast<std::size_t>(F::polarity_agreement)], "polarity_agreement");
  EXPECT_EQ(names[static_cast<std::size_t>(F::claim_numbers_missing)], "claim_numbers_missing");
  EXPECT_EQ(names[static_cast<std::size_t>(F::claim_content_coverage)], "claim_content_coverage");
  EXPECT_EQ(std::set<std::string_view>(names.begin(), names.end()).size(), names.size());
  EXPECT_EQ(relation_features("a", "b").size(), kRelationFeatureCount);
}

TEST(RelationFeatures, CountsNegationCuesAndTheirMismatch) {
  const std::string claim = "X does not cause Y.";  // not
  // without, never, lack, don't, "fail to" = 5; "NO" (nitric oxide), "notably" and "knots" are no cues
  const std::string evidence = "Without X, patients never lack Y and don't fail to heal. NO levels rose notably in knots.";
  EXPECT_EQ(feature(claim, evidence, F::claim_negation_count), 1.0);
  EXPECT_EQ(feature(claim, evidence, F::evidence_negation_count), 3.0);  // 5 cues, capped at kRelationCountCap
  EXPECT_EQ(feature(claim, evidence, F::negation_mismatch), 0.0);
  EXPECT_EQ(feature(claim, "X caused Y.", F::negation_mismatch), 1.0);
  EXPECT_EQ(feature("X causes Y.", "X caused Y.", F::negation_mismatch), 0.0);
  EXPECT_EQ(feature("X cannot cause Y in the absence of Z.", "", F::claim_negation_count), 2.0);
}

TEST(RelationFeatures, CountsNullResultCuesOncePerNegator) {
  const std::string claim = "X has no effect on Y.";  // "no" + "effect"
  // similar; "not" + significantly (once, though "differ" follows too); "no" + significant
  const std::string evidence = "Levels were similar; X did not significantly differ and showed no significant difference.";
  EXPECT_EQ(feature(claim, evidence, F::claim_null_count), 1.0);
  EXPECT_EQ(feature(claim, evidence, F::evidence_null_count), 3.0);
  EXPECT_EQ(feature(claim, evidence, F::null_mismatch), 0.0);
  EXPECT_EQ(feature(claim, "X increased Y.", F::null_mismatch), 1.0);
  // "no" three words before "effect" is outside the two-word reach
  EXPECT_EQ(feature("No large adverse clinical effect.", "", F::claim_null_count), 0.0);
}

TEST(RelationFeatures, PolarityNearSharedWords) {
  // claim: "increases" (+1) next to "aspirin"; evidence: "reduced" (-1) next to "aspirin"
  const std::string claim = "Aspirin increases bleeding risk.";
  const std::string evidence = "In the trial, aspirin reduced the risk of bleeding.";
  EXPECT_EQ(feature(claim, evidence, F::claim_polarity), 1.0);
  EXPECT_EQ(feature(claim, evidence, F::evidence_polarity), -1.0);
  EXPECT_EQ(feature(claim, evidence, F::polarity_agreement), -1.0);
  EXPECT_EQ(feature(claim, evidence, F::both_have_polarity), 1.0);
  // a negation cue up to three words before a direction word reverses it
  EXPECT_EQ(feature(claim, "Aspirin did not increase bleeding.", F::evidence_polarity), -1.0);
  EXPECT_EQ(feature(claim, "Aspirin did not in fact ever increase bleeding.", F::evidence_polarity), 1.0);
  EXPECT_EQ(feature(claim, "NO levels in aspirin increased bleeding.", F::evidence_polarity), 1.0);  // "NO": acronym
  // opposite directions on one side cancel
  EXPECT_EQ(feature(claim, "Aspirin increased bleeding and decreased risk.", F::evidence_polarity), 0.0);
}

TEST(RelationFeatures, PolarityWindowLimitsTheReach) {
  // The only shared word is "aspirin" (word 0); "improved" is word 13 of the evidence.
  const std::string claim = "Aspirin improves survival.";
  const std::string evidence = "Aspirin was given to one two three four five six patients whose mood improved.";
  EXPECT_EQ(feature(claim, evidence, F::claim_polarity), 1.0);
  EXPECT_EQ(feature(claim, evidence, F::evidence_polarity), 0.0);
  EXPECT_EQ(feature(claim, evidence, F::polarity_agreement), 0.0);
  EXPECT_EQ(feature(claim, evidence, F::both_have_polarity), 0.0);
  EXPECT_EQ(feature(claim, evidence, F::evidence_polarity, {.window = 12}), 0.0);
  EXPECT_EQ(feature(claim, evidence, F::evidence_polarity, {.window = 13}), 1.0);
  // no shared word at all: no polarity on either side
  EXPECT_EQ(feature("Aspirin improves survival.", "Mood improved.", F::claim_polarity), 0.0);
}

TEST(RelationFeatures, NumbersOfTheClaimMissingFromTheEvidence) {
  // claim numbers: 2.5, 10, 1,000, 3 (not IL-6, p53, 6MP, 40mg)
  const std::string claim = "A 2.5 mg dose raised IL-6 by 10% in 1,000 of 3 groups (p53, 6MP, 40mg).";
  // evidence numbers: 10, 3.0, 1,000, 2.5 ("2.5-fold"); "3" is missing, "3.0" is another string
  const std::string evidence = "We saw 10% and 3.0 in 1,000 patients; IL-6 rose 2.5-fold.";
  EXPECT_EQ(feature(claim, evidence, F::claim_number_count), 3.0);  // 4 numbers, capped at kRelationCountCap
  EXPECT_EQ(feature(claim, evidence, F::claim_numbers_missing), 0.25);
  EXPECT_EQ(feature("Dose 5 or 5 again.", "", F::claim_number_count), 2.0);
  EXPECT_EQ(feature("Dose 5 or 5 again.", "", F::claim_numbers_missing), 1.0);  // distinct numbers: {5}
  EXPECT_EQ(feature("No numbers here.", "5", F::claim_numbers_missing), 0.0);
}

TEST(RelationFeatures, HedgesInTheEvidence) {
  // may, suggest, possible, potentially, unclear; "mayor" and "suggestion" are other words
  const std::string evidence = "These results may suggest a possible, potentially unclear role for the mayor's suggestion.";
  EXPECT_EQ(feature("X", evidence, F::evidence_hedge_count), 3.0);  // 5 cues, capped at kRelationCountCap
  EXPECT_EQ(feature(evidence, "X", F::evidence_hedge_count), 0.0);  // the claim's hedges are not counted
}

TEST(RelationFeatures, TokenOverlap) {
  // tokens {the, cat, sat, on, mat} and {a, cat, sat}: 2 shared of 6 in the union;
  // claim content tokens (no stop words) cat, sat, mat: 2 of 3 found
  EXPECT_DOUBLE_EQ(feature("The cat sat on the mat.", "A cat sat.", F::token_jaccard), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(feature("The cat sat on the mat.", "A cat sat.", F::claim_content_coverage), 2.0 / 3.0);
  EXPECT_EQ(feature("The of.", "The of.", F::claim_content_coverage), 0.0);  // only stop words
}

TEST(RelationFeatures, EmptyTextsGiveFiniteZerosAndResultsRepeat) {
  for (const auto& [claim, evidence] : std::vector<std::pair<std::string, std::string>>{
           {"", ""}, {"", "X increases Y."}, {"   ", "\xCE\xB1"}, {"- ' , .", "n't no-"}}) {
    const auto values = relation_features(claim, evidence);
    ASSERT_EQ(values.size(), kRelationFeatureCount);
    for (const double v : values) EXPECT_TRUE(std::isfinite(v));
    EXPECT_EQ(values, relation_features(claim, evidence));
  }
  for (const double v : relation_features("", "")) EXPECT_EQ(v, 0.0);
}

TEST(RelationFeatures, NegatingTheClaimFlipsTheRelation) {
  using claimrag::text::negate_claim;
  // a direction swap flips the polarity agreement
  const std::string evidence1 = "Aspirin increased the risk of bleeding.";
  const std::string claim1 = "Aspirin increases bleeding risk.";
  EXPECT_EQ(feature(claim1, evidence1, F::polarity_agreement), 1.0);
  EXPECT_EQ(feature(negate_claim(claim1).text, evidence1, F::polarity_agreement), -1.0);
  // an inserted negation creates a negation mismatch
  const std::string evidence2 = "Aspirin caused bleeding in most patients.";
  const std::string claim2 = "Aspirin causes bleeding.";
  EXPECT_EQ(feature(claim2, evidence2, F::negation_mismatch), 0.0);
  EXPECT_EQ(feature(negate_claim(claim2).text, evidence2, F::negation_mismatch), 1.0);
  // a removed negation removes the mismatch and, as "not reduce" counted +1, flips the polarity
  const std::string evidence3 = "Statins reduced mortality.";
  const std::string claim3 = "Statins do not reduce mortality.";
  EXPECT_EQ(feature(claim3, evidence3, F::negation_mismatch), 1.0);
  EXPECT_EQ(feature(negate_claim(claim3).text, evidence3, F::negation_mismatch), 0.0);
  EXPECT_EQ(feature(claim3, evidence3, F::polarity_agreement), -1.0);
  EXPECT_EQ(feature(negate_claim(claim3).text, evidence3, F::polarity_agreement), 1.0);
  // "no effect" removed: the null-result mismatch appears
  const std::string evidence4 = "Exercise had no effect on mood.";
  const std::string claim4 = "Exercise has no effect on mood.";
  EXPECT_EQ(feature(claim4, evidence4, F::null_mismatch), 0.0);
  EXPECT_EQ(feature(negate_claim(claim4).text, evidence4, F::null_mismatch), 1.0);
}

TEST(RelationFeatures, CountsStopAtTheCapWhateverTheLength) {
  std::string evidence;
  for (int i = 0; i < 1000; ++i) evidence += "X did not change Y; it may not matter. ";
  const auto f = relation_features("No, X never changes Y, not in 2 or 3 or 4 or 5 trials.", evidence);
  for (const F which : {F::claim_negation_count, F::evidence_negation_count, F::evidence_null_count, F::evidence_hedge_count,
                        F::claim_number_count}) {
    EXPECT_EQ(f.at(static_cast<std::size_t>(which)), claimrag::text::kRelationCountCap) << static_cast<int>(which);
  }
}

TEST(RelationFeatures, ParaphrasedDirectionWordsDisagreeWithTheCoreOnes) {
  // "attenuated" and "boosted" are paraphrases (-1 and +1): read against "increases" they disagree
  // and agree; with the paraphrases switched off they carry no polarity at all.
  claimrag::text::RelationFeatureOptions off;
  off.paraphrased_directions = false;
  const std::string claim = "Statin therapy increases LDL cholesterol.";
  EXPECT_EQ(feature(claim, "Statin therapy attenuated LDL cholesterol.", F::polarity_agreement), -1.0);
  EXPECT_EQ(feature(claim, "Statin therapy attenuated LDL cholesterol.", F::polarity_agreement, off), 0.0);
  EXPECT_EQ(feature(claim, "Statin therapy boosted LDL cholesterol.", F::polarity_agreement), 1.0);
  EXPECT_EQ(feature(claim, "LDL cholesterol declined with statin therapy.", F::polarity_agreement), -1.0);
  // The core words are read either way: "lowered" was always a direction word.
  EXPECT_EQ(feature(claim, "Statin therapy lowered LDL cholesterol by 30 to 50 percent.", F::polarity_agreement, off), -1.0);
}
