#pragma once
// RM3 pseudo-relevance feedback (Lavrenko & Croft 2001; Abdul-Jaleel et al. 2004, as Anserini's):
// the top `documents` abstracts of a first BM25 pass are taken as relevant, their language models
// P(t|d) = tf(t,d)/|d| are averaged with each abstract weighted by its BM25 score, the `terms`
// most probable terms are kept and renormalised into R(t), and the query becomes
//   Q'(t) = original_weight · c(t)/Σc + (1 − original_weight) · R(t)
// (c(t) the claim's token counts). Our tokenizer keeps stop words, which would otherwise fill the
// expansion; terms found in more than max_document_fraction of the abstracts are not expanded.
#include <cstddef>
#include <span>
#include <vector>

#include "claimrag/retrieval/abstract_indexes.hpp"
#include "claimrag/retrieval/weighted_bm25.hpp"

namespace claimrag::retrieval {

struct FeedbackOptions {
  std::size_t documents = 10;           ///< feedback abstracts, >= 1
  std::size_t terms = 10;               ///< expansion terms kept, >= 1
  double original_weight = 0.5;         ///< in [0, 1]
  double max_document_fraction = 0.05;  ///< expansion terms need df <= this · N
};

/// The RM3 query of `query` (terms of indexes.whole) given the first pass's `scores` of every
/// abstract. Feedback abstracts are the highest scores, ties to the earlier abstract; only
/// abstracts with a positive score count. Terms of the result are the claim's in their order,
/// then the new expansion terms by decreasing R(t) (ties: smaller term id).
std::vector<WeightedTerm> rm3_query(const AbstractIndexes& indexes, std::span<const WeightedTerm> query,
                                    std::span<const double> scores, const FeedbackOptions& options);

/// The positions of the `k` highest `scores`, best first, ties to the smaller position; only
/// positive scores are taken, so fewer than k may come back.
std::vector<std::uint32_t> top_positions(std::span<const double> scores, std::size_t k);

}  // namespace claimrag::retrieval
