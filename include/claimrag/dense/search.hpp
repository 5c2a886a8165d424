#pragma once
// Exact maximum-inner-product search of a batch of queries over the document matrix.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "claimrag/nn/parameter.hpp"

namespace claimrag::dense {

/// One retrieved document: its row in the document matrix and its score (q · d).
struct ScoredDocument {
  std::int32_t document = 0;
  float score = 0;
  friend bool operator==(const ScoredDocument&, const ScoredDocument&) = default;
};

/// For every row of `queries` (m × dim), the min(k, n) rows of `documents` (n × dim, n < 2³¹)
/// with the largest dot products, best first; equal scores rank the lower document index first.
/// Scores come from float matrix products over fixed blocks of queries; blocks are spread over
/// OpenMP threads, so the output is identical whatever the thread count.
std::vector<std::vector<ScoredDocument>> search_top_k(const nn::Matrix<float>& queries,
                                                      const nn::Matrix<float>& documents, std::size_t k);

}  // namespace claimrag::dense
