#pragma once
// Abstention strategies compared on the same items: each strategy is a confidence per item, and
// every strategy answers the same answer per item, so the curves differ only in the order in which
// items are answered. Risk–coverage summaries (risk_coverage.hpp) with percentile-bootstrap
// intervals over items, paired differences against a reference strategy with their two-sided
// bootstrap p-values, and the oracle (confidence 1 − loss: every safe item before any unsafe one),
// the floor no confidence can go below.

#include <string>
#include <vector>

#include "claimrag/metrics/bootstrap.hpp"
#include "claimrag/selective/risk_coverage.hpp"

namespace claimrag::selective {

struct ComparedStrategy {
  std::string name;                ///< not "oracle" (reserved for the floor)
  std::vector<double> confidence;  ///< one per item, finite
};

struct StrategyComparisonInput {
  std::vector<double> loss;             ///< one per item, in [0, 1]
  std::vector<bool> always_abstains;    ///< one per item: no answer to give (ranked last by every strategy)
  std::vector<ComparedStrategy> strategies;
};

struct ComparisonOptions {
  std::string reference;  ///< the strategy differences are taken against; one of the strategies
  metrics::BootstrapOptions bootstrap;  ///< resampled over items (each item its own cluster)
};

struct StrategyComparisonRow {
  std::string name;
  RiskCoverage curve;  ///< on all items
  metrics::BootstrapInterval aurc, risk_at_30, risk_at_50, risk_at_70, coverage_at_risk_5, coverage_at_risk_10;
  /// This strategy's AURC and Risk@30 minus the reference's, on the same resamples (0 for the reference).
  metrics::BootstrapInterval aurc_difference, risk_at_30_difference;
  double aurc_p_value = 1, risk_at_30_p_value = 1;  ///< metrics::bootstrap_p_value of the differences
};

/// One row per strategy in input order, then "oracle". UsageError for no items or strategies,
/// sizes that differ, a non-finite confidence, a loss outside [0, 1], a repeated or reserved name,
/// or a reference that is not among the strategies.
std::vector<StrategyComparisonRow> compare_strategies(const StrategyComparisonInput& input, const ComparisonOptions& options);

}  // namespace claimrag::selective
