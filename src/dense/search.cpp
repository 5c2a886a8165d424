#include "claimrag/dense/search.hpp"

#include <algorithm>
#include <numeric>

#include "claimrag/error.hpp"

namespace claimrag::dense {
namespace {

// Queries per matrix product: large enough for an efficient product, small enough that the
// block's scores (block × n floats) stay in cache. Fixed, so threads never change the result.
constexpr Eigen::Index kQueryBlock = 16;

std::vector<ScoredDocument> top_k_of_row(const float* scores, std::int32_t n, std::size_t k,
                                         std::vector<std::int32_t>& candidates) {
  candidates.resize(static_cast<std::size_t>(n));
  std::iota(candidates.begin(), candidates.end(), 0);
  const auto better = [scores](std::int32_t a, std::int32_t b) {
    return scores[a] != scores[b] ? scores[a] > scores[b] : a < b;
  };
  const auto keep = static_cast<std::ptrdiff_t>(std::min<std::size_t>(k, candidates.size()));
  std::nth_element(candidates.begin(), candidates.begin() + keep, candidates.end(), better);
  std::sort(candidates.begin(), candidates.begin() + keep, better);
  std::vector<ScoredDocument> hits(static_cast<std::size_t>(keep));
  for (std::ptrdiff_t i = 0; i < keep; ++i) {
    const std::int32_t document = candidates[static_cast<std::size_t>(i)];
    hits[static_cast<std::size_t>(i)] = {document, scores[document]};
  }
  return hits;
}

}  // namespace

std::vector<std::vector<ScoredDocument>> search_top_k(const nn::Matrix<float>& queries,
                                                      const nn::Matrix<float>& documents, std::size_t k) {
  // queries: m × dim; documents: n × dim; per block, scores: block × n.
  if (queries.cols() != documents.cols()) throw InternalError("search_top_k: query and document dimensions differ");
  if (documents.rows() > INT32_MAX) throw InternalError("search_top_k: too many documents");
  const Eigen::Index m = queries.rows();
  const auto n = static_cast<std::int32_t>(documents.rows());
  std::vector<std::vector<ScoredDocument>> results(static_cast<std::size_t>(m));
  const Eigen::Index blocks = (m + kQueryBlock - 1) / kQueryBlock;
#pragma omp parallel
  {
    nn::Matrix<float> scores;
    std::vector<std::int32_t> candidates;
#pragma omp for schedule(dynamic, 1)
    for (Eigen::Index block = 0; block < blocks; ++block) {
      const Eigen::Index first = block * kQueryBlock;
      const Eigen::Index rows = std::min(kQueryBlock, m - first);
      scores.noalias() = queries.middleRows(first, rows) * documents.transpose();
      for (Eigen::Index r = 0; r < rows; ++r) {
        results[static_cast<std::size_t>(first + r)] = top_k_of_row(scores.row(r).data(), n, k, candidates);
      }
    }
  }
  return results;
}

}  // namespace claimrag::dense
