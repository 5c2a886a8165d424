#pragma once
// A linear ranker over ClaimCandidates' features: the features (a chosen subset of the columns)
// are standardised with the training rows' mean and standard deviation, and a linear scorer is
// fitted on every training claim's candidates, labelled 1 when the qrels judge them relevant:
//   listwise   the conditional logit (conditional_logit.hpp): softmax over each claim's candidates
//   pointwise  an L2 logistic regression (rerank/logistic_regression.hpp, liblinear's objective)
//              over all candidates of all claims, the paper reranker's objective
// Candidates are then ordered by wᵀx + b, ties to the smaller corpus position.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "claimrag/rerank/logistic_regression.hpp"
#include "claimrag/retrieval/claim_features.hpp"
#include "claimrag/retrieval/conditional_logit.hpp"

namespace claimrag::retrieval {

enum class RankerObjective { listwise, pointwise };

struct LearnedRankerOptions {
  std::vector<std::size_t> columns;  ///< feature columns used, increasing; empty = every column
  RankerObjective objective = RankerObjective::listwise;
  double l2 = 1e-3;                  ///< listwise: λ, > 0
  double C = 1.0;                    ///< pointwise: > 0, with balanced class weights
};

struct LearnedRanker {
  std::vector<std::size_t> columns;
  Eigen::VectorXd mean;   ///< per used column
  Eigen::VectorXd scale;  ///< per used column: the standard deviation, 1 where it is 0
  Eigen::VectorXd weights;  ///< per used column, on standardised features
  double intercept = 0;     ///< pointwise only; a constant does not change a ranking
  std::size_t training_rows = 0;
  std::size_t training_positives = 0;

  /// wᵀ((x − mean)/scale) + b over the used columns of `row`.
  [[nodiscard]] double score(const std::array<double, kClaimFeatureCount>& row) const;
};

/// Fits on the candidates of the training claims; labels[c][i] (0 or 1) belongs to
/// claims[c].documents[i]. UsageError when the sizes disagree, a column is out of range, or the
/// rows hold no positive or no negative.
LearnedRanker train_learned_ranker(std::span<const ClaimCandidates> claims, std::span<const std::vector<int>> labels,
                                   const LearnedRankerOptions& options);

/// The candidates' positions in `claim` (indices into documents), best first.
std::vector<std::size_t> rank_candidates(const LearnedRanker& ranker, const ClaimCandidates& claim,
                                         std::vector<double>* scores = nullptr);

}  // namespace claimrag::retrieval
