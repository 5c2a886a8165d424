#include "claimrag/dense/search.hpp"

#include <algorithm>
#include <cstring>
#include <functional>

#include "claimrag/error.hpp"

namespace claimrag::dense {
namespace {

// Queries per matrix product: large enough that the document matrix is not re-packed for
// every few queries, small enough that the block's scores (block × n floats, 660 KB for
// SciFact) stay in cache and 300 queries split evenly over two threads. Fixed, so the thread
// count never changes which products are computed.
constexpr Eigen::Index kQueryBlock = 32;

// One 64-bit key per document that orders exactly as the ranking rule: the score's bits mapped
// to an unsigned integer of the same order (−0 first made +0, as the two compare equal), then
// the complement of the index, so that of two equal scores the lower index has the larger key.
std::uint64_t ranking_key(float score, std::int32_t document) {
  if (score == 0.0F) score = 0.0F;
  std::uint32_t bits = 0;
  std::memcpy(&bits, &score, sizeof bits);
  bits = (bits & 0x80000000U) != 0 ? ~bits : bits | 0x80000000U;
  return (static_cast<std::uint64_t>(bits) << 32) | (0xFFFFFFFFU - static_cast<std::uint32_t>(document));
}

std::int32_t document_of(std::uint64_t key) {
  return static_cast<std::int32_t>(0xFFFFFFFFU - static_cast<std::uint32_t>(key & 0xFFFFFFFFU));
}

// One pass in index order with a min-heap of the best k keys so far: most documents fail the
// single comparison with the worst kept key.
std::vector<ScoredDocument> top_k_of_row(const float* scores, std::int32_t n, std::size_t k,
                                         std::vector<std::uint64_t>& heap) {
  const auto keep = static_cast<std::int32_t>(std::min<std::size_t>(k, static_cast<std::size_t>(n)));
  heap.clear();
  for (std::int32_t d = 0; d < keep; ++d) heap.push_back(ranking_key(scores[d], d));
  std::make_heap(heap.begin(), heap.end(), std::greater<>());
  for (std::int32_t d = keep; d < n; ++d) {
    const std::uint64_t key = ranking_key(scores[d], d);
    if (key > heap.front()) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<>());
      heap.back() = key;
      std::push_heap(heap.begin(), heap.end(), std::greater<>());
    }
  }
  std::sort(heap.begin(), heap.end(), std::greater<>());
  std::vector<ScoredDocument> hits(heap.size());
  for (std::size_t i = 0; i < heap.size(); ++i) {
    const std::int32_t document = document_of(heap[i]);
    hits[i] = {document, scores[document]};
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
    std::vector<std::uint64_t> heap;
#pragma omp for schedule(dynamic, 1)
    for (Eigen::Index block = 0; block < blocks; ++block) {
      const Eigen::Index first = block * kQueryBlock;
      const Eigen::Index rows = std::min(kQueryBlock, m - first);
      scores.noalias() = queries.middleRows(first, rows) * documents.transpose();
      for (Eigen::Index r = 0; r < rows; ++r) {
        results[static_cast<std::size_t>(first + r)] = top_k_of_row(scores.row(r).data(), n, k, heap);
      }
    }
  }
  return results;
}

}  // namespace claimrag::dense
