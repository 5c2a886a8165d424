#pragma once
// BM25 with weighted query terms, over any bm25::InvertedIndex (whole abstracts, titles or
// sentences): score(q, d) = Σ_t w_t · idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl)), with
// idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5)) as bm25/search.hpp. A plain claim is the weighting
// "each token's count"; pseudo-relevance feedback (feedback.hpp) gives fractional weights, which
// the string-based bm25::Searcher cannot take.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/search.hpp"

namespace claimrag::retrieval {

/// One query term (an index term id) and its weight.
struct WeightedTerm {
  std::uint32_t term = 0;
  double weight = 0;
};

/// The claim's tokens known to `index`, each once with its count as weight, in order of first
/// occurrence. Tokens no document contains are dropped.
std::vector<WeightedTerm> count_terms(const bm25::InvertedIndex& index, std::string_view query);

/// idf(t) of index term `term` (< index.terms.size()).
double bm25_idf(const bm25::InvertedIndex& index, std::uint32_t term);

/// Adds the weighted BM25 score of every document into `scores` (document_count() entries),
/// term by term in the order given, so the sums do not depend on the thread count. Computes each
/// posting's impact on the way: the oracle that PostingImpacts is tested against.
void add_bm25_scores(const bm25::InvertedIndex& index, bm25::Bm25Parameters parameters,
                     std::span<const WeightedTerm> query, std::span<double> scores);

/// Every posting's idf(t)·tf·(k1+1)/(tf + k1·(1 − b + b·|d|/avgdl)) for one index and one k1, b,
/// computed once (8 bytes per posting), so that a query costs one multiply-add per posting.
class PostingImpacts {
 public:
  /// Keeps a reference to `index`, which must outlive it.
  PostingImpacts(const bm25::InvertedIndex& index, bm25::Bm25Parameters parameters);
  /// As add_bm25_scores, equal to it bit for bit (the same products in the same order).
  void add_scores(std::span<const WeightedTerm> query, std::span<double> scores) const;
  /// The scores of every document for `query`.
  [[nodiscard]] std::vector<double> score_all(std::span<const WeightedTerm> query) const;
  [[nodiscard]] const bm25::InvertedIndex& index() const { return index_; }

 private:
  const bm25::InvertedIndex& index_;
  std::vector<double> idf_;      ///< per term
  std::vector<double> impacts_;  ///< per posting, without the idf, term after term
  std::vector<std::size_t> term_starts_;  ///< term t's impacts start at term_starts_[t]
};

}  // namespace claimrag::retrieval
