#pragma once
// The in-batch contrastive objective: for B training pairs, logits = Q·Dᵀ / τ over the batch's
// documents, softmax cross-entropy with each pair's own document as the target.
//
// When two pairs of a batch share a document, the columns are deduplicated: the batch holds
// each distinct document once and both rows target that column. Left on the diagonal twice,
// the copy would be a false negative (the model asked to push a query away from its own
// document). For the same reason, a column holding another known positive of a row's query
// (a query with two relevant documents in one batch) is masked out of that row's softmax
// (logit −∞, so it takes no probability and gets no gradient). Each row's loss is then exactly
// the diagonal loss of a batch without the duplicate.

#include <cstdint>
#include <utility>
#include <vector>

#include "claimrag/dense/dual_encoder.hpp"
#include "claimrag/nn/embedding_bag.hpp"

namespace claimrag::dense {

/// One (query index, document index) training pair.
struct TrainingPair {
  std::int32_t query = 0;
  std::int32_t document = 0;
  friend bool operator==(const TrainingPair&, const TrainingPair&) = default;
  friend auto operator<=>(const TrainingPair&, const TrainingPair&) = default;
};

/// A batch laid out for the model: B query rows, C distinct document columns.
struct ContrastiveBatch {
  nn::TokenBags queries;                          ///< B bags, truncated for the query tower
  nn::TokenBags documents;                        ///< C bags, in order of first appearance
  std::vector<std::int32_t> targets;              ///< B, the column of each row's document
  std::vector<std::pair<std::int32_t, std::int32_t>> masked;  ///< (row, column) left out
};

/// Lays out pairs[batch[0..B)] of `pairs`. `all_pairs_sorted` is every training pair, sorted,
/// and decides which other columns are positives of a row's query. Indices must be in range of
/// `queries` / `documents` (InternalError otherwise).
template <typename Scalar>
ContrastiveBatch make_contrastive_batch(const DualEncoder<Scalar>& model,
                                        const std::vector<std::vector<std::int32_t>>& queries,
                                        const std::vector<std::vector<std::int32_t>>& documents,
                                        const std::vector<TrainingPair>& pairs,
                                        const std::vector<std::size_t>& batch,
                                        const std::vector<TrainingPair>& all_pairs_sorted);

/// The batch's mean cross-entropy; adds its gradient with respect to the embedding table(s)
/// into model.parameters()[·].grad.
template <typename Scalar>
double contrastive_forward_backward(DualEncoder<Scalar>& model, const ContrastiveBatch& batch);

}  // namespace claimrag::dense
