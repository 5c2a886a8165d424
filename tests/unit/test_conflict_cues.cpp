// The conflict cues the free-text rule may ask for before it lets γ call CONTRADICT, read from
// the relation features of real sentences.

#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "claimrag/text/relation_features.hpp"
#include "claimrag/verification/label_features.hpp"

using claimrag::verification::relation_conflict_cues;

namespace {

std::vector<std::string_view> cues(std::string_view claim, std::string_view evidence) {
  return relation_conflict_cues(claimrag::text::relation_features(claim, evidence));
}

}  // namespace

TEST(ConflictCues, NameEachSignThatTheEvidenceMaySayTheOpposite) {
  const std::string_view claim = "Metformin lowers fasting blood glucose in adults.";
  EXPECT_TRUE(cues(claim, "Metformin lowers fasting blood glucose in adults.").empty());
  // "did not lower" is a negation on one side and, negated, a direction opposite to the claim's.
  EXPECT_EQ(cues(claim, "Metformin did not lower fasting blood glucose in adults."),
            (std::vector<std::string_view>{"negation", "direction"}));
  EXPECT_EQ(cues("Metformin is safe in adults.", "Metformin is not safe in adults."), std::vector<std::string_view>{"negation"});
  EXPECT_EQ(cues(claim, "Metformin raised fasting blood glucose in adults."), std::vector<std::string_view>{"direction"});
  EXPECT_EQ(cues("Metformin lowers fasting blood glucose by 30 percent.", "Metformin lowers fasting blood glucose by 5 percent."),
            std::vector<std::string_view>{"number"});
  const auto null = cues(claim, "Fasting blood glucose in adults was unchanged by metformin.");
  EXPECT_NE(std::find(null.begin(), null.end(), "null_result"), null.end());
  // A negation on both sides is no mismatch, so no cue.
  EXPECT_TRUE(cues("Metformin does not lower weight in adults.", "Metformin did not lower weight in adults.").empty());
}
