#include "claimrag/retrieval/learned_ranker.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "claimrag/error.hpp"

namespace claimrag::retrieval {
namespace {

std::vector<std::size_t> used_columns(const std::vector<std::size_t>& columns) {
  if (columns.empty()) {
    std::vector<std::size_t> all(kClaimFeatureCount);
    std::iota(all.begin(), all.end(), std::size_t{0});
    return all;
  }
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] >= kClaimFeatureCount || (i > 0 && columns[i] <= columns[i - 1])) {
      throw UsageError("learned ranker: feature columns must be increasing and below " +
                       std::to_string(kClaimFeatureCount));
    }
  }
  return columns;
}

}  // namespace

double LearnedRanker::score(const std::array<double, kClaimFeatureCount>& row) const {
  double total = intercept;
  for (std::size_t j = 0; j < columns.size(); ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    total += weights[i] * (row[columns[j]] - mean[i]) / scale[i];
  }
  return total;
}

LearnedRanker train_learned_ranker(std::span<const ClaimCandidates> claims, std::span<const std::vector<int>> labels,
                                   const LearnedRankerOptions& options) {
  if (claims.size() != labels.size()) throw UsageError("learned ranker: one label list per claim is needed");
  LearnedRanker ranker;
  ranker.columns = used_columns(options.columns);
  const auto d = static_cast<Eigen::Index>(ranker.columns.size());
  std::size_t rows = 0;
  for (std::size_t c = 0; c < claims.size(); ++c) {
    if (labels[c].size() != claims[c].documents.size()) {
      throw UsageError("learned ranker: claim " + std::to_string(c) + " has " + std::to_string(labels[c].size()) +
                       " labels for " + std::to_string(claims[c].documents.size()) + " candidates");
    }
    rows += labels[c].size();
  }
  rerank::RowMatrixXd X(static_cast<Eigen::Index>(rows), d);
  std::vector<int> y;
  y.reserve(rows);
  Eigen::Index r = 0;
  for (std::size_t c = 0; c < claims.size(); ++c) {
    for (std::size_t i = 0; i < labels[c].size(); ++i, ++r) {
      for (Eigen::Index j = 0; j < d; ++j) X(r, j) = claims[c].features[i][ranker.columns[static_cast<std::size_t>(j)]];
      y.push_back(labels[c][i]);
    }
  }
  ranker.mean = X.colwise().mean().transpose();
  ranker.scale.resize(d);
  for (Eigen::Index j = 0; j < d; ++j) {
    const double variance = (X.col(j).array() - ranker.mean[j]).square().mean();
    ranker.scale[j] = variance > 0 ? std::sqrt(variance) : 1.0;
    X.col(j) = (X.col(j).array() - ranker.mean[j]) / ranker.scale[j];
  }
  if (options.objective == RankerObjective::pointwise) {
    rerank::LogisticRegressionOptions fit;
    fit.C = options.C;
    const auto classifier = rerank::fit_logistic_regression(X, y, fit);
    ranker.weights = classifier.weights;
    ranker.intercept = classifier.intercept;
  } else {
    std::vector<CandidateGroup> groups;
    Eigen::Index begin = 0;
    for (const auto& claim_labels : labels) {
      const auto n = static_cast<Eigen::Index>(claim_labels.size());
      groups.push_back({X.middleRows(begin, n), claim_labels});
      begin += n;
    }
    ConditionalLogitOptions fit;
    fit.l2 = options.l2;
    ranker.weights = fit_conditional_logit(groups, fit).weights;
  }
  ranker.training_rows = rows;
  ranker.training_positives = static_cast<std::size_t>(std::count(y.begin(), y.end(), 1));
  return ranker;
}

std::vector<std::size_t> rank_candidates(const LearnedRanker& ranker, const ClaimCandidates& claim,
                                         std::vector<double>* scores) {
  std::vector<double> values(claim.documents.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = ranker.score(claim.features[i]);
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // documents are in increasing corpus position, so the index breaks ties as the corpus order does
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] > values[b]; });
  if (scores != nullptr) *scores = std::move(values);
  return order;
}

}  // namespace claimrag::retrieval
