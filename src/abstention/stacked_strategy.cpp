#include "claimrag/abstention/stacked_strategy.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "claimrag/error.hpp"
#include "claimrag/grounding/benchmark.hpp"
#include "claimrag/rerank/logistic_regression.hpp"

namespace claimrag::abstention {
namespace {

struct Standardised {
  std::vector<double> mean, deviation;
};

Standardised standardisation(const ClaimsTable& table, const std::vector<std::size_t>& rows) {
  Standardised s;
  for (const auto& column : table.confidence) {
    double sum = 0, squares = 0;
    for (const std::size_t r : rows) sum += column[r];
    const double mean = sum / static_cast<double>(rows.size());
    for (const std::size_t r : rows) squares += (column[r] - mean) * (column[r] - mean);
    const double deviation = std::sqrt(squares / static_cast<double>(rows.size()));
    s.mean.push_back(mean);
    s.deviation.push_back(deviation > 0 ? deviation : 1.0);
  }
  return s;
}

rerank::RowMatrixXd design(const ClaimsTable& table, const std::vector<std::size_t>& rows, const Standardised& s) {
  rerank::RowMatrixXd X(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(table.confidence.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t f = 0; f < table.confidence.size(); ++f) {
      X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(f)) = (table.confidence[f][rows[i]] - s.mean[f]) / s.deviation[f];
    }
  }
  return X;
}

/// A model fitted on `rows` of `train` and its decision value for every row of `table`.
std::vector<double> fit_and_score(const ClaimsTable& train, const std::vector<std::size_t>& rows, const ClaimsTable& table) {
  std::vector<int> safe;
  for (const std::size_t r : rows) safe.push_back(train.unsafe[r] ? 0 : 1);
  if (std::count(safe.begin(), safe.end(), 1) == 0 || std::count(safe.begin(), safe.end(), 0) == 0) {
    throw UsageError(
        "the stacked strategy needs safe and unsafe answered training claims in every fold (\"stacked\": false in the "
        "configuration's abstention section compares without it)");
  }
  const auto s = standardisation(train, rows);
  rerank::LogisticRegressionOptions options;
  options.class_weight = rerank::ClassWeight::none;
  const auto model = rerank::fit_logistic_regression(design(train, rows, s), safe, options);
  std::vector<std::size_t> all(table.claim_ids.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  const auto X = design(table, all, s);
  std::vector<double> values;
  for (Eigen::Index i = 0; i < X.rows(); ++i) values.push_back(model.decision_function(X.row(i).transpose()));
  return values;
}

}  // namespace

void add_stacked_strategy(ClaimsTable& train, ClaimsTable& test, std::uint64_t seed, std::size_t folds) {
  if (train.strategies != test.strategies) throw UsageError("the stacked strategy needs the same strategy columns in both tables");
  if (std::find(train.strategies.begin(), train.strategies.end(), kStackedStrategy) != train.strategies.end()) {
    throw UsageError("a strategy column is already named \"stacked\"");
  }
  if (folds < 2) throw UsageError("the stacked strategy needs at least 2 folds");
  std::vector<std::size_t> answered;
  for (std::size_t c = 0; c < train.claim_ids.size(); ++c) {
    if (train.answered[c]) answered.push_back(c);
  }
  test.confidence.push_back(fit_and_score(train, answered, test));

  // Out of fold on train, folds drawn by the portable shuffle (std::shuffle's draws are
  // implementation-defined).
  std::mt19937_64 generator(seed);
  std::vector<std::size_t> order = answered;
  grounding::shuffle_portably(order, generator);
  std::vector<double> out_of_fold(train.claim_ids.size(), 0.0);
  for (std::size_t f = 0; f < folds; ++f) {
    std::vector<std::size_t> fitting, held_out;
    for (std::size_t i = 0; i < order.size(); ++i) (i % folds == f ? held_out : fitting).push_back(order[i]);
    const auto values = fit_and_score(train, fitting, train);
    for (const std::size_t r : held_out) out_of_fold[r] = values[r];
  }
  train.confidence.push_back(std::move(out_of_fold));
  train.strategies.emplace_back(kStackedStrategy);
  test.strategies.emplace_back(kStackedStrategy);
}

}  // namespace claimrag::abstention
