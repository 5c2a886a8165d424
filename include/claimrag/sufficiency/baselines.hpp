#pragma once
// The systems SURE is compared with, each a feature matrix for the same multinomial regression
// (classifier.hpp), fitted on the train split:
//  pooling (same pair verifier): max-pool (max support, max refute, min neutral over passages),
//    mean-pool (the mean distribution), top-k pool (the mean distribution of the k passages with
//    the lowest neutral probability, k = min(2, passages));
//  shortcuts (no verifier; if they come near SURE the benchmark has artifacts):
//    claim-only and evidence-only (TF-IDF of the claim / of the joined passages, the
//    `tfidf_features` most frequent train terms), concatenated TF-IDF (both), length-only (number
//    of passages, total / mean / max / min tokens), overlap-only (max / mean / min passage
//    overlap with the claim, overlap of the joined passages); majority is the train split's most
//    frequent label.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "claimrag/linear/softmax_regression.hpp"
#include "claimrag/sufficiency/example.hpp"
#include "claimrag/sufficiency/pair_scoring.hpp"
#include "claimrag/tfidf/vectorizer.hpp"

namespace claimrag::sufficiency {

enum class Pooling { max, mean, top_k };

/// One row of 3 pooled values per example (an unjudged example pools to (0, 0, 1)).
linear::RowMatrixXd pooled_features(std::span<const ScoredExample> scored, Pooling pooling);

/// Length-only rows (5 columns).
linear::RowMatrixXd length_features(std::span<const Example> examples);
/// Overlap-only rows (4 columns).
linear::RowMatrixXd overlap_features(std::span<const Example> examples, std::span<const ScoredExample> scored);

/// TF-IDF rows of `texts` over the vectorizer's features (dense).
linear::RowMatrixXd tfidf_rows(const tfidf::TfidfVectorizer& vectorizer, std::span<const std::string> texts);

/// The claims and the joined passages of examples, for the TF-IDF shortcuts.
std::vector<std::string> claim_texts(std::span<const Example> examples);
std::vector<std::string> evidence_texts(std::span<const Example> examples);

}  // namespace claimrag::sufficiency
