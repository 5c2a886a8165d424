#pragma once
// The reranker's training examples: for every judged claim, BM25's top `depth` abstracts, each
// labelled 1 when the qrels judge it relevant (grade > 0) and 0 otherwise. Relevant abstracts
// that BM25 does not retrieve are not added: the reranker learns to reorder what retrieval finds.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/rerank/features.hpp"
#include "claimrag/rerank/logistic_regression.hpp"

namespace claimrag::rerank {

struct TrainingSet {
  RowMatrixXd features;                 ///< n × kFeatureCount, rows grouped by claim in `queries` order, best hit first
  std::vector<int> labels;              ///< n, 0 or 1
  std::vector<std::string> query_ids;   ///< n: the claim of each row
  std::vector<std::uint32_t> documents; ///< n: the corpus position of each row's abstract
  [[nodiscard]] std::size_t positives() const;
};

/// Builds the examples of `queries` (each judged in `qrels`, else UsageError naming it) from the
/// extractor's BM25 top `depth` (>= 1). Rows do not depend on the OpenMP thread count.
TrainingSet build_training_set(const FeatureExtractor& extractor, std::span<const dataset::Query> queries,
                               const dataset::Qrels& qrels, std::size_t depth);

}  // namespace claimrag::rerank
