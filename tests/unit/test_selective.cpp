#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/selective/calibration.hpp"
#include "claimrag/selective/risk_coverage.hpp"

using namespace claimrag;
using selective::ScoredItem;

TEST(SelectiveRiskCoverage, CurveAndSummariesByHand) {
  // Answered in order 0.9 (right), 0.8 (wrong), 0.7 (right), 0.6 (wrong), given shuffled.
  const std::vector<ScoredItem> items{{0.7, 0}, {0.9, 0}, {0.6, 1}, {0.8, 1}};
  const auto curve = selective::risk_coverage(items);
  const std::vector<double> risk{0.0, 0.5, 1.0 / 3.0, 0.5};
  ASSERT_EQ(curve.risk.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_DOUBLE_EQ(curve.risk[i], risk[i]);
    EXPECT_DOUBLE_EQ(curve.coverage[i], static_cast<double>(i + 1) / 4.0);
  }
  EXPECT_DOUBLE_EQ(curve.aurc, (0.0 + 0.5 + 1.0 / 3.0 + 0.5) / 4.0);
  EXPECT_DOUBLE_EQ(curve.risk_at_30, 0.5);        // ceil(1.2) = 2 answered
  EXPECT_DOUBLE_EQ(curve.risk_at_50, 0.5);        // 2 answered
  EXPECT_DOUBLE_EQ(curve.risk_at_70, 1.0 / 3.0);  // ceil(2.8) = 3 answered
  EXPECT_DOUBLE_EQ(curve.coverage_at_risk_5, 0.25);
  EXPECT_DOUBLE_EQ(selective::coverage_at_risk(curve, 0.34), 0.75);
  EXPECT_DOUBLE_EQ(selective::risk_at_coverage(curve, 1.0), 0.5);
}

TEST(SelectiveRiskCoverage, TiesTakeTheirExpectationAndAbstainersComeLast) {
  // A tie of one wrong and one right: each step of the group adds half an error.
  const std::vector<ScoredItem> tie{{0.5, 1}, {0.5, 0}};
  const auto curve = selective::risk_coverage(tie);
  EXPECT_DOUBLE_EQ(curve.risk[0], 0.5);
  EXPECT_DOUBLE_EQ(curve.risk[1], 0.5);
  // An item that always abstains comes after a less confident one.
  const std::vector<ScoredItem> items{{0.9, 1, true}, {0.1, 0}};
  const auto last = selective::risk_coverage(items);
  EXPECT_DOUBLE_EQ(last.risk[0], 0.0);
  EXPECT_DOUBLE_EQ(last.risk[1], 0.5);
  EXPECT_THROW(selective::risk_coverage(std::vector<ScoredItem>{}), InternalError);
}

TEST(SelectiveCalibration, BinaryDecisionEceByHand) {
  // Decisions: 0.9 Safe (right, confidence 0.9), 0.8 Safe (wrong, 0.8), 0.3 Unsafe (right, 0.7),
  // 0.1 Unsafe (wrong, 0.9). 15 bins: 0.9 -> bin 13 (two items, accuracy 1/2), 0.8 -> 12, 0.7 -> 10.
  const std::vector<double> p{0.9, 0.8, 0.3, 0.1};
  const std::vector<int> safe{1, 0, 0, 1};
  const double expected = (std::abs(1.0 - 1.8) + std::abs(0.0 - 0.8) + std::abs(1.0 - 0.7)) / 4.0;
  EXPECT_NEAR(selective::binary_decision_ece(p, safe, 15), expected, 1e-12);
  // Perfectly confident and right: 0.
  EXPECT_EQ(selective::binary_decision_ece(std::vector<double>{1.0, 0.0}, std::vector<int>{1, 0}, 15), 0.0);
  EXPECT_THROW(selective::binary_decision_ece(std::vector<double>{1.5}, std::vector<int>{1}, 15), InternalError);
  EXPECT_THROW(selective::binary_decision_ece(std::vector<double>{}, std::vector<int>{}, 15), InternalError);
}

TEST(SelectiveCalibration, SoftmaxRowsAndTemperature) {
  Eigen::MatrixXd logits(1, 2);
  logits << 0.0, std::log(3.0);
  const auto p = selective::softmax_rows(logits);
  EXPECT_NEAR(p(0, 0), 0.25, 1e-15);
  EXPECT_NEAR(p(0, 1), 0.75, 1e-15);
  const auto halved = selective::softmax_rows(logits * 2.0, 2.0);
  EXPECT_NEAR(halved(0, 1), 0.75, 1e-15);
  // A function with its minimum at T = 2 on the log scale.
  EXPECT_NEAR(selective::minimize_temperature([](double t) { return std::pow(std::log(t / 2.0), 2); }), 2.0, 1e-6);
  // Over-confident logits: the labels agree with the argmax 3 times in 4, so the fitted T > 1
  // and is a minimum of the NLL.
  Eigen::MatrixXd z(4, 3);
  z << 8, 0, 0, 0, 8, 0, 0, 0, 8, 8, 0, 0;
  const std::vector<int> labels{0, 1, 2, 1};
  const double t = selective::fit_softmax_temperature(z, labels);
  EXPECT_GT(t, 1.0);
  const auto nll = [&](double temperature) {
    const auto q = selective::softmax_rows(z, temperature);
    double total = 0;
    for (int i = 0; i < 4; ++i) total -= std::log(q(i, labels[static_cast<std::size_t>(i)]));
    return total;
  };
  EXPECT_LT(nll(t), nll(t * 1.01));
  EXPECT_LT(nll(t), nll(t / 1.01));
}

// ⌈coverage·n⌉ with room for the product's rounding, at least one item.
TEST(ItemsAtCoverage, CeilingWithRoundingAllowanceAndAtLeastOne) {
  EXPECT_EQ(claimrag::selective::items_at_coverage(0.3, 300), 90U);  // 0.3·300 = 90.00000000000001
  EXPECT_EQ(claimrag::selective::items_at_coverage(0.301, 300), 91U);
  EXPECT_EQ(claimrag::selective::items_at_coverage(0.001, 10), 1U);
  EXPECT_EQ(claimrag::selective::items_at_coverage(0.0, 10), 1U);
  EXPECT_EQ(claimrag::selective::items_at_coverage(1.0, 7), 7U);
}
