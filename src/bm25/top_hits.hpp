#pragma once
// The best k hits seen so far, for scorers that visit documents in increasing document order: a
// document enters only with a strictly higher score than the worst one held, so a later document
// loses a tie, which is the documented tie rule (the earlier document first).

#include <algorithm>
#include <cstddef>
#include <vector>

#include "claimrag/bm25/search.hpp"

namespace claimrag::bm25::detail {

class TopHits {
 public:
  explicit TopHits(std::size_t k) : k_(k) { heap_.reserve(k + 1); }

  /// Offers a document, visited after every document offered before it.
  void offer(std::uint32_t document, double score) {
    if (heap_.size() < k_) {
      heap_.push_back({document, score});
      std::push_heap(heap_.begin(), heap_.end(), better);
    } else if (k_ > 0 && score > heap_.front().score) {
      std::pop_heap(heap_.begin(), heap_.end(), better);
      heap_.back() = {document, score};
      std::push_heap(heap_.begin(), heap_.end(), better);
    }
  }
  [[nodiscard]] bool full() const { return heap_.size() == k_; }
  /// The score a new document must exceed once full().
  [[nodiscard]] double worst_score() const { return heap_.front().score; }
  /// Best first; empties the holder.
  [[nodiscard]] std::vector<Hit> take_sorted() {
    std::sort_heap(heap_.begin(), heap_.end(), better);
    return std::move(heap_);
  }

 private:
  static bool better(const Hit& a, const Hit& b) { return a.score != b.score ? a.score > b.score : a.document < b.document; }
  std::size_t k_;
  std::vector<Hit> heap_;  ///< a heap whose front is the hit to evict
};

}  // namespace claimrag::bm25::detail
