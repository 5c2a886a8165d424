#include "claimrag/selective/strategy_comparison.hpp"

#include <cmath>
#include <set>

#include "claimrag/error.hpp"

namespace claimrag::selective {
namespace {

constexpr const char* kOracle = "oracle";
// Per strategy, the statistics in this order: aurc, risk@30/50/70, coverage@5/10 %, then the
// differences of aurc and risk@30 against the reference.
constexpr std::size_t kSummaries = 6;
constexpr std::size_t kPerStrategy = kSummaries + 2;

void check(const StrategyComparisonInput& input, const ComparisonOptions& options) {
  const std::size_t n = input.loss.size();
  if (n == 0) throw UsageError("compare strategies: no items");
  if (input.strategies.empty()) throw UsageError("compare strategies: no strategies");
  if (input.always_abstains.size() != n) throw UsageError("compare strategies: always_abstains and loss differ in size");
  for (const double loss : input.loss) {
    if (!(loss >= 0 && loss <= 1)) throw UsageError("compare strategies: a loss outside [0, 1]");
  }
  std::set<std::string> names;
  for (const auto& strategy : input.strategies) {
    if (strategy.name == kOracle) throw UsageError("compare strategies: the name \"oracle\" is reserved for the floor");
    if (!names.insert(strategy.name).second) throw UsageError("compare strategies: strategy \"" + strategy.name + "\" twice");
    if (strategy.confidence.size() != n) {
      throw UsageError("compare strategies: strategy \"" + strategy.name + "\" has " + std::to_string(strategy.confidence.size()) +
                       " confidences for " + std::to_string(n) + " items");
    }
    for (const double value : strategy.confidence) {
      if (!std::isfinite(value)) throw UsageError("compare strategies: strategy \"" + strategy.name + "\" has a non-finite confidence");
    }
  }
  if (!names.count(options.reference)) throw UsageError("compare strategies: the reference \"" + options.reference + "\" is not a strategy");
}

std::vector<ScoredItem> items_of(const StrategyComparisonInput& input, const std::vector<double>& confidence,
                                 std::span<const std::size_t> chosen) {
  std::vector<ScoredItem> items;
  items.reserve(chosen.size());
  for (const std::size_t i : chosen) items.push_back({confidence[i], input.loss[i], input.always_abstains[i]});
  return items;
}

}  // namespace

std::vector<StrategyComparisonRow> compare_strategies(const StrategyComparisonInput& input, const ComparisonOptions& options) {
  check(input, options);
  std::vector<std::string> names;
  std::vector<std::vector<double>> confidences;
  std::size_t reference = 0;
  for (const auto& strategy : input.strategies) {
    if (strategy.name == options.reference) reference = names.size();
    names.push_back(strategy.name);
    confidences.push_back(strategy.confidence);
  }
  names.emplace_back(kOracle);
  std::vector<double> perfect;
  for (const double loss : input.loss) perfect.push_back(1.0 - loss);
  confidences.push_back(std::move(perfect));

  const auto statistics = [&](std::span<const std::size_t> chosen) {
    std::vector<RiskCoverage> curves;
    for (const auto& confidence : confidences) curves.push_back(risk_coverage(items_of(input, confidence, chosen)));
    std::vector<double> values;
    for (const auto& curve : curves) {
      values.insert(values.end(), {curve.aurc, curve.risk_at_30, curve.risk_at_50, curve.risk_at_70, curve.coverage_at_risk_5,
                                   curve.coverage_at_risk_10, curve.aurc - curves[reference].aurc,
                                   curve.risk_at_30 - curves[reference].risk_at_30});
    }
    return values;
  };
  std::vector<std::size_t> own_cluster(input.loss.size());
  for (std::size_t i = 0; i < own_cluster.size(); ++i) own_cluster[i] = i;
  const auto distribution = metrics::cluster_bootstrap_many(own_cluster, statistics, options.bootstrap);

  std::vector<std::size_t> everything(own_cluster);
  std::vector<StrategyComparisonRow> rows;
  for (std::size_t s = 0; s < names.size(); ++s) {
    const auto interval = [&](std::size_t statistic) {
      const std::size_t at = s * kPerStrategy + statistic;
      return metrics::percentile_interval(distribution.resampled[at], distribution.estimates[at], options.bootstrap.level);
    };
    StrategyComparisonRow row;
    row.name = names[s];
    row.curve = risk_coverage(items_of(input, confidences[s], everything));
    row.aurc = interval(0);
    row.risk_at_30 = interval(1);
    row.risk_at_50 = interval(2);
    row.risk_at_70 = interval(3);
    row.coverage_at_risk_5 = interval(4);
    row.coverage_at_risk_10 = interval(5);
    row.aurc_difference = interval(kSummaries);
    row.risk_at_30_difference = interval(kSummaries + 1);
    row.aurc_p_value = metrics::bootstrap_p_value(distribution.resampled[s * kPerStrategy + kSummaries]);
    row.risk_at_30_p_value = metrics::bootstrap_p_value(distribution.resampled[s * kPerStrategy + kSummaries + 1]);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace claimrag::selective
