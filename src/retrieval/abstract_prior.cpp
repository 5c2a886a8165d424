#include "claimrag/retrieval/abstract_prior.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "claimrag/error.hpp"
#include "claimrag/sequential_eigen.hpp"

namespace claimrag::retrieval {

rerank::RowMatrixXd abstract_prior_features(const AbstractIndexes& indexes, std::size_t terms) {
  const auto& whole = indexes.whole;
  std::vector<std::uint32_t> order(whole.term_count());
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return whole.document_frequency(a) > whole.document_frequency(b); });
  const std::size_t used = std::min(terms, order.size());
  std::vector<std::int64_t> column(whole.term_count(), -1);
  for (std::size_t k = 0; k < used; ++k) column[order[k]] = static_cast<std::int64_t>(k);

  const auto documents = indexes.document_count();
  rerank::RowMatrixXd features = rerank::RowMatrixXd::Zero(static_cast<Eigen::Index>(documents),
                                                           static_cast<Eigen::Index>(used + 1));
  for (std::size_t d = 0; d < documents; ++d) {
    const auto row = static_cast<Eigen::Index>(d);
    for (auto k = indexes.forward_offsets[d]; k < indexes.forward_offsets[d + 1]; ++k) {
      const auto j = column[indexes.forward_terms[k]];
      if (j >= 0) features(row, j) = std::log1p(static_cast<double>(indexes.forward_frequencies[k]));
    }
    features(row, static_cast<Eigen::Index>(used)) = std::log1p(static_cast<double>(whole.doc_lengths()[d]));
  }
  return features;
}

std::vector<double> fit_abstract_prior(const rerank::RowMatrixXd& features, const std::vector<int>& cited, double C) {
  if (cited.size() != static_cast<std::size_t>(features.rows())) {
    throw UsageError("abstract prior: " + std::to_string(cited.size()) + " labels for " +
                     std::to_string(features.rows()) + " abstracts");
  }
  const auto positives = std::count(cited.begin(), cited.end(), 1);
  if (static_cast<std::size_t>(positives + std::count(cited.begin(), cited.end(), 0)) != cited.size()) {
    throw UsageError("abstract prior: labels must be 0 or 1");
  }
  std::vector<double> prior(cited.size(), 0.0);
  if (positives == 0 || static_cast<std::size_t>(positives) == cited.size()) return prior;
  rerank::LogisticRegressionOptions options;
  options.C = C;
  const SequentialEigenProducts sequential;  // the same bytes for any thread count (a no-op inside parallel_for)
  const auto model = rerank::fit_logistic_regression(features, cited, options);
  for (std::size_t d = 0; d < prior.size(); ++d) {
    prior[d] = model.decision_function(features.row(static_cast<Eigen::Index>(d)).transpose());
  }
  return prior;
}

}  // namespace claimrag::retrieval
