// The optional label column null_against_effect, read from rows whose relation features are
// those of the texts (the other columns do not enter it), and the option that adds it.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "claimrag/text/relation_features.hpp"
#include "claimrag/verification/label_features.hpp"

using claimrag::verification::label_feature_names;
using claimrag::verification::null_against_effect;

namespace {

/// A label row of zeros with the relation features of (claim, evidence) in their columns.
double column(std::string_view claim, std::string_view evidence) {
  std::vector<double> row(label_feature_names().size() - claimrag::text::kRelationFeatureCount, 0.0);
  const auto relation = claimrag::text::relation_features(claim, evidence);
  row.insert(row.end(), relation.begin(), relation.end());
  return null_against_effect(row);
}

}  // namespace

TEST(NullAgainstEffect, IsOneForANullResultAgainstAClaimOfAnEffectOnly) {
  const std::string claim = "Metformin lowers fasting blood glucose in adults.";
  EXPECT_EQ(column(claim, "Metformin had no effect on fasting blood glucose in adults."), 1.0);
  EXPECT_EQ(column(claim, "Fasting blood glucose in adults was unchanged by metformin."), 1.0);
  EXPECT_EQ(column(claim, "Fasting blood glucose did not differ between adults on metformin and placebo."), 1.0);
  // Support, and a plain negation, are not null results.
  EXPECT_EQ(column(claim, "Metformin lowered fasting blood glucose in adults."), 0.0);
  EXPECT_EQ(column(claim, "Metformin did not lower fasting blood glucose in adults."), 0.0);
  // A claim that itself says "no effect", or is negated, asserts no effect.
  EXPECT_EQ(column("Metformin has no effect on fasting blood glucose.", "Metformin had no effect on fasting blood glucose."), 0.0);
  EXPECT_EQ(column("Metformin does not lower fasting blood glucose.", "Metformin had no effect on fasting blood glucose."), 0.0);
  // A claim without a direction word near the shared words asserts no effect either.
  EXPECT_EQ(column("Metformin is taken with fasting blood glucose tests.", "Metformin had no effect on fasting blood glucose."), 0.0);
}
