// compare-abstention's command layer: which reference a user's table is compared against, and how
// a p-value is printed.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "claimrag/abstention/command.hpp"
#include "claimrag/error.hpp"

namespace {

using claimrag::abstention::choose_reference;
using claimrag::abstention::p_value_text;

const std::vector<std::string> kStrategies{"retrieval", "verifier"};

TEST(AbstentionCommand, TheConfiguredReferenceWhenTheTableHasItElseTheFirstStrategy) {
  EXPECT_EQ(choose_reference({"gate", "bm25_top1"}, "", "bm25_top1", {}, "t.tsv"), "bm25_top1");
  EXPECT_EQ(choose_reference(kStrategies, "", "bm25_top1", {}, "t.tsv"), "retrieval");
  EXPECT_EQ(choose_reference(kStrategies, "verifier", "bm25_top1", {}, "t.tsv"), "verifier");
  EXPECT_EQ(choose_reference(kStrategies, "stacked", "bm25_top1", {"stacked"}, "t.tsv"), "stacked");
}

TEST(AbstentionCommand, AnUnknownReferenceListsTheTablesStrategies) {
  try {
    (void)choose_reference(kStrategies, "bm25_top1", "bm25_top1", {}, "mine.tsv");
    FAIL() << "an unknown reference was accepted";
  } catch (const claimrag::UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "compare-abstention: the reference \"bm25_top1\" is not a strategy of mine.tsv (its strategies: retrieval, verifier)");
  }
  EXPECT_THROW((void)choose_reference({}, "", "bm25_top1", {}, "empty.tsv"), claimrag::UsageError);
}

TEST(AbstentionCommand, PValuesBelowOneInAThousandPrintAsABound) {
  EXPECT_EQ(p_value_text(0.0), "< 0.001");
  EXPECT_EQ(p_value_text(0.00099), "< 0.001");
  EXPECT_EQ(p_value_text(0.001), "0.0010");
  EXPECT_EQ(p_value_text(0.014), "0.0140");
  EXPECT_EQ(p_value_text(1.0), "1.0000");
}

}  // namespace
