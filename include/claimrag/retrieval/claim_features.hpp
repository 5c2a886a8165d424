#pragma once
// The candidates of one claim and their features, for the learned ranker (learned_ranker.hpp).
//
// Five first-stage runs are scored over every abstract: BM25 of the whole abstract, BM25 of the
// RM3-expanded claim (feedback.hpp), the best sentence's BM25 (abstract_indexes.hpp), all three
// over stemmed tokens, BM25 over the tokens as written (the paper's), and BM25 over character
// n-grams. The candidates are the union of the first four runs' top `depth` and the n-gram run's
// top `gram_depth`. Each candidate gets, in claim_feature_names() order:
//   bm25, rm3, sentence_max        the three runs' scores
//   bm25_relative, rm3_relative,   each divided by the run's best score for the claim: BM25 scores
//   sentence_max_relative          grow with the claim's length and rarity, ranks within a claim do not
//   sentence_second                the second-best sentence's BM25 (evidence spread over two sentences)
//   title                          BM25 of the title alone
//   coverage                       Σ idf of the claim's distinct terms found in the abstract over Σ idf of all of them
//   bigram_fraction                claim bigrams (adjacent known tokens) found adjacent in the abstract, over all of them
//   bm25_rrf, rm3_rrf, sentence_rrf  1/(rrf_k + rank) in each run, ranks taken among the claim's
//                                  candidates (ties to the earlier abstract): a learned RRF
//   log_length                     ln(1 + tokens of the abstract)
//   exact_bm25, exact_bm25_relative, exact_sentence_max   BM25 and best-sentence BM25 over the
//                                  tokens as written (every other feature is over stemmed tokens)
//   gram_bm25, gram_bm25_relative  BM25 over character n-grams, and divided by the claim's best
//   abstract_prior                 the abstract's prior (abstract_prior.hpp), the same for every claim,
//                                  given by the caller: it is fitted on judged claims, which the
//                                  featurizer does not know
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/bm25/search.hpp"
#include "claimrag/retrieval/abstract_indexes.hpp"
#include "claimrag/retrieval/feedback.hpp"
#include "claimrag/retrieval/weighted_bm25.hpp"

namespace claimrag::retrieval {

inline constexpr std::size_t kClaimFeatureCount = 20;
/// The abstract_prior column, the last.
inline constexpr std::size_t kAbstractPriorColumn = kClaimFeatureCount - 1;

/// The feature names in column order.
const std::array<std::string, kClaimFeatureCount>& claim_feature_names();

struct ClaimFeatureOptions {
  bm25::Bm25Parameters whole{1.2, 0.75};
  bm25::Bm25Parameters title{1.2, 0.75};
  bm25::Bm25Parameters sentence{1.2, 0.75};
  FeedbackOptions feedback;
  std::size_t depth = 100;  ///< candidates taken from each of the first four runs, >= 1
  std::size_t gram_depth = 100;  ///< candidates taken from the n-gram run (0: none)
  double rrf_k = 60;        ///< > 0
};

/// One claim's candidates (corpus positions, increasing) and their features, one row each.
struct ClaimCandidates {
  std::vector<std::uint32_t> documents;
  std::vector<std::array<double, kClaimFeatureCount>> features;
};

/// Scores claims against the indexes, which must outlive it. Thread-safe after construction.
class ClaimFeaturizer {
 public:
  ClaimFeaturizer(const AbstractIndexes& indexes, ClaimFeatureOptions options);
  /// `prior` holds one value per abstract, or is empty: the abstract_prior column is then 0.
  /// UsageError for any other size.
  [[nodiscard]] ClaimCandidates candidates(std::string_view claim, std::span<const double> prior) const;
  [[nodiscard]] const ClaimFeatureOptions& options() const { return options_; }
  [[nodiscard]] const AbstractIndexes& indexes() const { return indexes_; }

 private:
  const AbstractIndexes& indexes_;
  ClaimFeatureOptions options_;
  PostingImpacts whole_, titles_, sentences_, exact_, exact_sentences_, grams_;
};

/// Rank (1 = best) of each of `positions` among themselves by decreasing score, ties to the
/// smaller position. `positions` must be increasing.
std::vector<std::uint32_t> ranks_among(const std::vector<double>& scores, const std::vector<std::uint32_t>& positions);

}  // namespace claimrag::retrieval
