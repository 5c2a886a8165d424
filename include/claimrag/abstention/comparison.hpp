#pragma once
// The abstention comparison (`claimrag compare-abstention` and the reproduction's "abstention"
// stage): every strategy of a claims table (claims_table.hpp) on the same claims, with
// risk–coverage summaries, bootstrap intervals, paired differences against a reference strategy
// and the oracle floor (selective/strategy_comparison.hpp), and operating points whose thresholds
// are chosen on the training claims' table only, then applied to the test claims.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "claimrag/abstention/claims_table.hpp"
#include "claimrag/selective/operating_point.hpp"
#include "claimrag/selective/strategy_comparison.hpp"

namespace claimrag::abstention {

struct ComparisonSettings {
  std::string reference = "bm25_top1";  ///< the strategy every other is compared against
  std::size_t resamples = 1000;         ///< bootstrap resamples over claims
  std::uint64_t seed = 42;
  std::vector<double> risk_targets{0.05, 0.10};  ///< operating points: the train threshold reaching each risk
  double coverage_target = 0.30;                 ///< and the train threshold answering this share
  bool stacked = true;  ///< with a training table, add the strategy learned from the others (stacked_strategy.hpp)
};

/// A threshold chosen on the training claims and what it gives on both sets.
struct ChosenOperatingPoint {
  std::string strategy;
  std::string target;  ///< "risk_0.05" (train risk ≤ 0.05), "coverage_0.30" (train coverage 30 %)
  selective::OperatingPoint train, test;  ///< the same threshold on each
};

struct AbstentionComparison {
  std::vector<selective::StrategyComparisonRow> rows;  ///< strategies, then the oracle
  std::vector<ChosenOperatingPoint> operating_points;  ///< empty without a training table
  std::size_t claims = 0, answered = 0, unsafe = 0;    ///< of the test table
};

/// Compares the test table's strategies. With `train`, its strategy columns must be the test's, in
/// the same order (UsageError naming both otherwise), and settings.stacked adds the strategy
/// "stacked" fitted on it. UsageError as compare_strategies.
AbstentionComparison compare_abstention(const ClaimsTable& test, const std::optional<ClaimsTable>& train,
                                        const ComparisonSettings& settings);

/// Writes into `folder`, all or nothing: abstention.tsv (a row per strategy and the oracle: each
/// summary with its 95 % interval, the differences against the reference with their p-values),
/// abstention_curves.tsv (coverage i/n, then each row's risk), abstention_operating_points.tsv
/// (strategy, target, threshold, train and test coverage and risk) and abstention.json (the same
/// numbers).
void write_abstention_comparison(const AbstentionComparison& comparison, const ComparisonSettings& settings,
                                 const std::filesystem::path& folder);

/// The numbers by section, as a reproduction files them: "abstention" (claims, answered, unsafe,
/// reference) and "abstention_<name>" per row (aurc, risk_at_30/50/70, coverage_at_risk_5/10, each
/// with _lower and _upper, the differences and p-values, and each operating point's test coverage
/// and risk).
std::map<std::string, std::map<std::string, double>> abstention_results(const AbstentionComparison& comparison);

/// UsageError unless `folder` is missing, empty, or holds only what write_abstention_comparison
/// writes (and claimrag's temporaries of it): claimrag never deletes what it did not write.
void refuse_foreign_comparison_folder(const std::filesystem::path& folder);

/// Reads the tables and writes the comparison: what `claimrag compare-abstention` does. Both tables
/// are read and checked before anything is computed; nothing is written on an error.
AbstentionComparison run_compare_abstention(const std::filesystem::path& test, const std::optional<std::filesystem::path>& train,
                                            const ComparisonSettings& settings, const std::filesystem::path& out);

}  // namespace claimrag::abstention
