#pragma once
// Seeded synthetic corpora and claims for scale tests and benchmarks: documents whose lengths are
// drawn from an empirical length distribution (SciFact's, say) and whose tokens follow a Zipf law
// over a vocabulary of "t<rank>" words. The same options give the same bytes on every platform:
// draws use std::mt19937_64's raw output and an inverse-CDF table, never the implementation-defined
// standard distributions.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"

namespace claimrag::dataset {

struct SyntheticCorpusOptions {
  std::size_t vocabulary = 50000;        ///< distinct words, ranked by frequency
  double zipf_exponent = 1.0;            ///< P(rank r) ∝ 1 / r^s
  std::vector<std::uint32_t> lengths{225};  ///< document lengths in tokens, drawn uniformly from this list
  std::uint64_t seed = 42;
};

/// Draws words of a Zipf law over "t1", "t2", … (rank 1 the most frequent).
class ZipfWords {
 public:
  /// Throws UsageError for an empty vocabulary or a negative exponent.
  ZipfWords(std::size_t vocabulary, double exponent);
  /// The rank (1-based) for a uniform number u in [0, 1).
  [[nodiscard]] std::size_t rank(double u) const;

 private:
  std::vector<double> cumulative_;  ///< normalised, cumulative_[r-1] = P(rank ≤ r)
};

/// The documents of synthetic_corpus one at a time, for corpora too large to hold: the i-th call
/// of next() gives document "s<i>".
class SyntheticDocuments {
 public:
  /// Throws UsageError for an empty or all-zero `options.lengths`.
  explicit SyntheticDocuments(const SyntheticCorpusOptions& options);
  ~SyntheticDocuments();
  SyntheticDocuments(const SyntheticDocuments&) = delete;
  SyntheticDocuments& operator=(const SyntheticDocuments&) = delete;
  Document next();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// `documents` documents "s<i>" with an empty title and the drawn words as text, in id order;
/// `position` filled. Throws UsageError for an empty or all-zero `lengths`.
Corpus synthetic_corpus(std::size_t documents, const SyntheticCorpusOptions& options);

/// `count` claims drawn from the same law (seed + 1, so they are not the first documents'
/// words), each of a length drawn from `lengths`.
std::vector<std::string> synthetic_claims(std::size_t count, const std::vector<std::uint32_t>& lengths,
                                          const SyntheticCorpusOptions& options);

}  // namespace claimrag::dataset
