#include "claimrag/retrieval/feedback.hpp"

#include <algorithm>
#include <map>

#include "../bm25/top_hits.hpp"

namespace claimrag::retrieval {

std::vector<std::uint32_t> top_positions(std::span<const double> scores, std::size_t k) {
  // BM25's own selection: positive scores only, best first, ties to the smaller position.
  bm25::detail::TopHits top(k);
  for (std::uint32_t d = 0; d < scores.size(); ++d) {
    if (scores[d] > 0) top.offer(d, scores[d]);
  }
  std::vector<std::uint32_t> positions;
  for (const auto& hit : top.take_sorted()) positions.push_back(hit.document);
  return positions;
}

std::vector<WeightedTerm> rm3_query(const AbstractIndexes& indexes, std::span<const WeightedTerm> query,
                                    std::span<const double> scores, const FeedbackOptions& options) {
  const auto& whole = indexes.whole;
  const double df_limit = options.max_document_fraction * static_cast<double>(whole.document_count());
  std::map<std::uint32_t, double> relevance;  // ordered by term id: sums do not depend on hashing
  for (const std::uint32_t d : top_positions(scores, options.documents)) {
    const double length = whole.doc_lengths()[d];
    for (std::uint64_t p = indexes.forward_offsets[d]; p < indexes.forward_offsets[d + 1]; ++p) {
      const std::uint32_t term = indexes.forward_terms[p];
      const double df = static_cast<double>(whole.document_frequency(term));
      if (df > df_limit) continue;
      relevance[term] += scores[d] * indexes.forward_frequencies[p] / length;
    }
  }
  std::vector<std::pair<std::uint32_t, double>> expansion(relevance.begin(), relevance.end());
  std::stable_sort(expansion.begin(), expansion.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  expansion.resize(std::min(expansion.size(), options.terms));
  double expansion_total = 0;
  for (const auto& entry : expansion) expansion_total += entry.second;
  double query_total = 0;
  for (const auto& term : query) query_total += term.weight;

  std::vector<WeightedTerm> result;
  for (const auto& term : query) {
    result.push_back({term.term, query_total > 0 ? options.original_weight * term.weight / query_total : 0.0});
  }
  if (expansion_total <= 0) return result;
  for (const auto& [term, mass] : expansion) {
    const double weight = (1.0 - options.original_weight) * mass / expansion_total;
    auto same = std::ranges::find(result, term, &WeightedTerm::term);
    if (same != result.end()) {
      same->weight += weight;
    } else {
      result.push_back({term, weight});
    }
  }
  return result;
}

}  // namespace claimrag::retrieval
