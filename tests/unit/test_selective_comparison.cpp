// The comparison of abstention strategies' building blocks: operating points chosen on one set
// and applied to another, several bootstrap statistics on the same resamples with their p-values,
// and the strategy comparison with its oracle floor. Every expected value is computed by hand.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/metrics/bootstrap.hpp"
#include "claimrag/selective/operating_point.hpp"
#include "claimrag/selective/strategy_comparison.hpp"

using namespace claimrag;

TEST(SelectiveOperatingPoint, ThresholdsChosenOnOneSetAndAppliedToAnother) {
  using selective::ScoredItem;
  // By confidence: 0.9 safe, 0.8 unsafe, 0.8 safe (a tie), 0.5 safe, 0.2 unsafe, and one that never answers.
  const std::vector<ScoredItem> items{{0.8, 1}, {0.9, 0}, {0.5, 0}, {0.2, 1}, {0.8, 0}, {5.0, 1, true}};
  // Risks after each tie group: 0/1, 1/3, 1/4, 2/5.
  EXPECT_DOUBLE_EQ(selective::threshold_for_risk(items, 0.0), 0.9);
  EXPECT_DOUBLE_EQ(selective::threshold_for_risk(items, 0.30), 0.5);  // 1/4 at 0.5 is the largest coverage within 0.30
  EXPECT_DOUBLE_EQ(selective::threshold_for_risk(items, 0.40), 0.2);
  const std::vector<ScoredItem> all_unsafe{{0.9, 1}, {0.1, 1}};
  EXPECT_TRUE(std::isinf(selective::threshold_for_risk(all_unsafe, 0.1)));
  // 6 items: coverage 0.3 wants ceil(1.8) = 2 answered: the second most confident is 0.8 (its tie answers 3).
  EXPECT_DOUBLE_EQ(selective::threshold_for_coverage(items, 0.3), 0.8);
  EXPECT_DOUBLE_EQ(selective::threshold_for_coverage(items, 1.0), 0.2);  // only 5 answerable
  EXPECT_THROW((void)selective::threshold_for_coverage(items, 0.0), UsageError);

  const auto point = selective::operating_point(items, 0.8);
  EXPECT_EQ(point.answered, 3u);
  EXPECT_DOUBLE_EQ(point.coverage, 3.0 / 6.0);
  EXPECT_DOUBLE_EQ(point.risk, 1.0 / 3.0);
  const auto nothing = selective::operating_point(items, std::numeric_limits<double>::infinity());
  EXPECT_EQ(nothing.answered, 0u);
  EXPECT_DOUBLE_EQ(nothing.risk, 0.0);
}

TEST(MetricsBootstrap, PValueAndIntervalFromResampledValues) {
  EXPECT_DOUBLE_EQ(metrics::bootstrap_p_value(std::vector<double>{0.1, 0.2, 0.3, -0.1}), 0.5);  // 2·min(1, 3)/4
  EXPECT_DOUBLE_EQ(metrics::bootstrap_p_value(std::vector<double>{0.0, 0.0}), 1.0);
  EXPECT_DOUBLE_EQ(metrics::bootstrap_p_value(std::vector<double>{0.1, 0.2}), 0.0);
  const auto interval = metrics::percentile_interval({4, 1, 3, 2, 5}, 3.0, 0.5);
  EXPECT_DOUBLE_EQ(interval.lower, 2.0);  // type 7: position 0.25·4 = 1 of 1..5 sorted
  EXPECT_DOUBLE_EQ(interval.upper, 4.0);
  // The single-statistic bootstrap is the multi-statistic one's first column.
  const std::vector<std::size_t> clusters{0, 1, 2, 3, 4, 5};
  const auto mean = [](std::span<const std::size_t> items) {
    double sum = 0;
    for (const std::size_t i : items) sum += static_cast<double>(i);
    return sum / static_cast<double>(items.size());
  };
  const auto one = metrics::cluster_bootstrap(clusters, mean, {200, 0.9, 7});
  const auto many = metrics::cluster_bootstrap_many(
      clusters, [&](std::span<const std::size_t> items) { return std::vector<double>{mean(items), -mean(items)}; }, {200, 0.9, 7});
  const auto again = metrics::percentile_interval(many.resampled[0], many.estimates[0], 0.9);
  EXPECT_EQ(one.lower, again.lower);
  EXPECT_EQ(one.upper, again.upper);
  EXPECT_EQ(many.resampled[1][17], -many.resampled[0][17]);
}

namespace {

selective::StrategyComparisonInput eight_items() {
  // Losses alternate 0, 1; "good" ranks the four safe items first, "bad" the four unsafe ones.
  selective::StrategyComparisonInput input;
  input.loss = {0, 1, 0, 1, 0, 1, 0, 1};
  input.always_abstains.assign(8, false);
  input.strategies = {{"bad", {0.1, 0.9, 0.2, 0.8, 0.3, 0.7, 0.4, 0.6}}, {"good", {0.9, 0.1, 0.8, 0.2, 0.7, 0.3, 0.6, 0.4}}};
  return input;
}

}  // namespace

TEST(SelectiveStrategyComparison, OracleFloorPairedDifferencesAndPValues) {
  const auto rows = selective::compare_strategies(eight_items(), {"bad", {500, 0.95, 42}});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2].name, "oracle");
  // good = oracle: risks 0, 0, 0, 0, 1/5, 2/6, 3/7, 4/8; bad: 1, 1, 1, 1, 4/5, 4/6, 4/7, 4/8.
  EXPECT_DOUBLE_EQ(rows[1].aurc.estimate, (1.0 / 5 + 2.0 / 6 + 3.0 / 7 + 4.0 / 8) / 8);
  EXPECT_DOUBLE_EQ(rows[2].aurc.estimate, rows[1].aurc.estimate);
  EXPECT_DOUBLE_EQ(rows[0].aurc.estimate, (4 + 4.0 / 5 + 4.0 / 6 + 4.0 / 7 + 4.0 / 8) / 8);
  EXPECT_DOUBLE_EQ(rows[1].risk_at_30.estimate, 0.0);  // ceil(2.4) = 3 answered
  EXPECT_DOUBLE_EQ(rows[0].risk_at_30.estimate, 1.0);
  EXPECT_DOUBLE_EQ(rows[1].risk_at_30_difference.estimate, -1.0);
  // The reference against itself: every resampled difference is 0.
  EXPECT_DOUBLE_EQ(rows[0].aurc_difference.lower, 0.0);
  EXPECT_DOUBLE_EQ(rows[0].aurc_difference.upper, 0.0);
  EXPECT_DOUBLE_EQ(rows[0].aurc_p_value, 1.0);
  // "good" is never worse than "bad" on a resample, and ties it only when every drawn item has the
  // same loss (probability 2/256), so p ≈ 2·2/256.
  EXPECT_LE(rows[1].aurc_difference.upper, 0.0);
  EXPECT_LT(rows[1].aurc_p_value, 0.05);
  EXPECT_LE(rows[1].aurc.lower, rows[1].aurc.estimate);
  EXPECT_GE(rows[1].aurc.upper, rows[1].aurc.estimate);
}

TEST(SelectiveStrategyComparison, RefusesInputItCannotCompare) {
  auto input = eight_items();
  EXPECT_THROW((void)selective::compare_strategies(input, {"missing", {}}), UsageError);
  input.strategies.push_back({"oracle", {0, 0, 0, 0}});
  EXPECT_THROW((void)selective::compare_strategies(input, {"bad", {}}), UsageError);
  input = eight_items();
  input.strategies[1].confidence.pop_back();
  EXPECT_THROW((void)selective::compare_strategies(input, {"bad", {}}), UsageError);
  input = eight_items();
  input.strategies[1].confidence[0] = std::nan("");
  EXPECT_THROW((void)selective::compare_strategies(input, {"bad", {}}), UsageError);
  input = eight_items();
  input.loss[0] = 2;
  EXPECT_THROW((void)selective::compare_strategies(input, {"bad", {}}), UsageError);
}

