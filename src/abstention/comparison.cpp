#include "claimrag/abstention/comparison.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>

#include "claimrag/abstention/stacked_strategy.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/atomic_file_set.hpp"
#include "claimrag/io/json_output.hpp"
#include "claimrag/io/table.hpp"

namespace claimrag::abstention {
namespace {

using selective::StrategyComparisonRow;

std::vector<selective::ScoredItem> items_of(const ClaimsTable& table, std::size_t strategy) {
  std::vector<selective::ScoredItem> items;
  for (std::size_t c = 0; c < table.claim_ids.size(); ++c) {
    items.push_back({table.confidence[strategy][c], table.unsafe[c] ? 1.0 : 0.0, !table.answered[c]});
  }
  return items;
}

std::string target_name(const char* kind, double value) { return std::string(kind) + io::fixed(value, 2); }

std::vector<ChosenOperatingPoint> operating_points(const ClaimsTable& test, const ClaimsTable& train,
                                                   const ComparisonSettings& settings) {
  std::vector<ChosenOperatingPoint> points;
  for (std::size_t s = 0; s < test.strategies.size(); ++s) {
    const auto train_items = items_of(train, s);
    const auto test_items = items_of(test, s);
    const auto add = [&](std::string target, double threshold) {
      points.push_back({test.strategies[s], std::move(target), selective::operating_point(train_items, threshold),
                        selective::operating_point(test_items, threshold)});
    };
    for (const double risk : settings.risk_targets) add(target_name("risk_", risk), selective::threshold_for_risk(train_items, risk));
    add(target_name("coverage_", settings.coverage_target), selective::threshold_for_coverage(train_items, settings.coverage_target));
  }
  return points;
}

/// The estimate and its interval, as three cells.
void add_interval(std::vector<std::string>& row, const metrics::BootstrapInterval& interval) {
  row.insert(row.end(), {io::fixed(interval.estimate, 4), io::fixed(interval.lower, 4), io::fixed(interval.upper, 4)});
}

std::string threshold_text(double threshold) { return std::isfinite(threshold) ? io::fixed(threshold, 6) : "inf"; }

// The summaries of a row, by name, in table order.
std::vector<std::pair<std::string, const metrics::BootstrapInterval*>> summaries(const StrategyComparisonRow& row) {
  return {{"aurc", &row.aurc},
          {"risk_at_30", &row.risk_at_30},
          {"risk_at_50", &row.risk_at_50},
          {"risk_at_70", &row.risk_at_70},
          {"coverage_at_risk_5", &row.coverage_at_risk_5},
          {"coverage_at_risk_10", &row.coverage_at_risk_10},
          {"aurc_difference", &row.aurc_difference},
          {"risk_at_30_difference", &row.risk_at_30_difference}};
}

io::Table comparison_table(const AbstentionComparison& comparison) {
  io::Table table{{"strategy"}, {}};
  for (const auto& [name, interval] : summaries(comparison.rows.front())) {
    table.columns.insert(table.columns.end(), {name, name + "_lower_95", name + "_upper_95"});
  }
  table.columns.insert(table.columns.end(), {"aurc_p_value", "risk_at_30_p_value"});
  for (const auto& row : comparison.rows) {
    std::vector<std::string> cells{row.name};
    for (const auto& [name, interval] : summaries(row)) add_interval(cells, *interval);
    cells.insert(cells.end(), {io::fixed(row.aurc_p_value, 4), io::fixed(row.risk_at_30_p_value, 4)});
    table.rows.push_back(std::move(cells));
  }
  return table;
}

io::Table curves_table(const AbstentionComparison& comparison) {
  io::Table table{{"coverage"}, {}};
  for (const auto& row : comparison.rows) table.columns.push_back(row.name);
  const std::size_t n = comparison.rows.front().curve.risk.size();
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::string> cells{io::fixed(comparison.rows.front().curve.coverage[i], 6)};
    for (const auto& row : comparison.rows) cells.push_back(io::fixed(row.curve.risk[i], 6));
    table.rows.push_back(std::move(cells));
  }
  return table;
}

io::Table operating_points_table(const AbstentionComparison& comparison) {
  io::Table table{{"strategy", "target", "threshold", "train_coverage", "train_risk", "test_answered", "test_coverage", "test_risk"}, {}};
  for (const auto& point : comparison.operating_points) {
    table.rows.push_back({point.strategy, point.target, threshold_text(point.train.threshold), io::fixed(point.train.coverage, 4),
                          io::fixed(point.train.risk, 4), std::to_string(point.test.answered), io::fixed(point.test.coverage, 4),
                          io::fixed(point.test.risk, 4)});
  }
  return table;
}

}  // namespace

AbstentionComparison compare_abstention(const ClaimsTable& given_test, const std::optional<ClaimsTable>& given_train,
                                        const ComparisonSettings& settings) {
  if (given_train && given_train->strategies != given_test.strategies) {
    throw UsageError("compare-abstention: the training table's strategy columns differ from the test table's (names and order must match)");
  }
  ClaimsTable test = given_test;
  std::optional<ClaimsTable> train = given_train;
  if (train && settings.stacked) add_stacked_strategy(*train, test, settings.seed);
  selective::StrategyComparisonInput input;
  for (std::size_t c = 0; c < test.claim_ids.size(); ++c) {
    input.loss.push_back(test.unsafe[c] ? 1.0 : 0.0);
    input.always_abstains.push_back(!test.answered[c]);
  }
  for (std::size_t s = 0; s < test.strategies.size(); ++s) input.strategies.push_back({test.strategies[s], test.confidence[s]});
  AbstentionComparison comparison;
  comparison.rows = selective::compare_strategies(input, {settings.reference, {settings.resamples, 0.95, settings.seed}});
  if (train) comparison.operating_points = operating_points(test, *train, settings);
  comparison.claims = test.claim_ids.size();
  for (std::size_t c = 0; c < test.claim_ids.size(); ++c) {
    comparison.answered += test.answered[c] ? 1 : 0;
    comparison.unsafe += test.unsafe[c] ? 1 : 0;
  }
  return comparison;
}

std::map<std::string, std::map<std::string, double>> abstention_results(const AbstentionComparison& comparison) {
  std::map<std::string, std::map<std::string, double>> results;
  results["abstention"] = {{"claims", static_cast<double>(comparison.claims)},
                           {"answered", static_cast<double>(comparison.answered)},
                           {"unsafe", static_cast<double>(comparison.unsafe)}};
  for (const auto& row : comparison.rows) {
    auto& section = results["abstention_" + row.name];
    for (const auto& [name, interval] : summaries(row)) {
      section[name] = interval->estimate;
      section[name + "_lower"] = interval->lower;
      section[name + "_upper"] = interval->upper;
    }
    section["aurc_p_value"] = row.aurc_p_value;
    section["risk_at_30_p_value"] = row.risk_at_30_p_value;
  }
  for (const auto& point : comparison.operating_points) {
    auto& section = results["abstention_" + point.strategy];
    section["test_coverage@" + point.target] = point.test.coverage;
    section["test_risk@" + point.target] = point.test.risk;
  }
  return results;
}

void write_abstention_comparison(const AbstentionComparison& comparison, const ComparisonSettings& settings,
                                 const std::filesystem::path& folder) {
  nlohmann::ordered_json json;
  json["reference"] = settings.reference;
  json["resamples"] = settings.resamples;
  json["seed"] = settings.seed;
  json["sections"] = abstention_results(comparison);
  io::AtomicFileSet files;
  io::write_tsv(comparison_table(comparison), files.stage(folder / "abstention.tsv"));
  io::write_tsv(curves_table(comparison), files.stage(folder / "abstention_curves.tsv"));
  io::write_tsv(operating_points_table(comparison), files.stage(folder / "abstention_operating_points.tsv"));
  const auto json_file = folder / "abstention.json";
  io::write_file_atomically(files.stage(json_file), io::json_text(json, json_file.string(), 2) + "\n");
  files.commit();
}

// The files write_abstention_comparison writes: a folder holding anything else (but claimrag's own
// temporaries and journals of them) was not written by compare-abstention.
void refuse_foreign_comparison_folder(const std::filesystem::path& folder) {
  static const std::array<std::string, 4> kOwn{"abstention.tsv", "abstention_curves.tsv", "abstention_operating_points.tsv",
                                               "abstention.json"};
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    const bool own = std::any_of(kOwn.begin(), kOwn.end(), [&](const std::string& file) {
      return name == file || name.starts_with("." + file + ".tmp.") || name.starts_with("." + file + ".commit.") ||
             name.starts_with(".." + file + ".");
    });
    if (!own) {
      throw UsageError(folder.string() + " is not empty and was not written by compare-abstention (it holds " + name +
                       "): claimrag never deletes what it did not write; choose another --out or empty it yourself");
    }
  }
}

AbstentionComparison run_compare_abstention(const std::filesystem::path& test, const std::optional<std::filesystem::path>& train,
                                            const ComparisonSettings& settings, const std::filesystem::path& out) {
  refuse_foreign_comparison_folder(out);
  const ClaimsTable test_table = read_claims_table(test);
  std::optional<ClaimsTable> train_table;
  if (train) train_table = read_claims_table(*train);
  auto comparison = compare_abstention(test_table, train_table, settings);
  write_abstention_comparison(comparison, settings, out);
  return comparison;
}

}  // namespace claimrag::abstention
