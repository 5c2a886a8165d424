#pragma once
// Row-wise softmax cross-entropy: the loss of every classifier and of the in-batch contrastive
// objective (logits = Q·Dᵀ / τ with the matching pairs on the diagonal).

#include <cstdint>
#include <vector>

#include "claimrag/nn/parameter.hpp"

namespace claimrag::nn {

/// What the backward pass needs: the row-wise softmax of the logits.
template <typename Scalar>
struct SoftmaxCrossEntropyCache {
  Matrix<Scalar> probabilities;  ///< n × classes
  std::vector<std::int32_t> targets;
  std::vector<double> weights;  ///< per-row weight; empty means all 1
  double weight_sum = 0;
};

/// Mean (weighted) cross-entropy of `logits` (n × classes) against `targets` (n entries, each in
/// [0, classes)); `weights` (n entries, or empty for all 1) scales each row's loss, and the mean
/// divides by their sum. Computed with the max-shift for stability; accumulates in double.
template <typename Scalar>
double softmax_cross_entropy_forward(const Matrix<Scalar>& logits,
                                     const std::vector<std::int32_t>& targets,
                                     const std::vector<double>& weights,
                                     SoftmaxCrossEntropyCache<Scalar>& cache);

/// Adds d(loss)/d(logits) into `dlogits` (n × classes), scaled by `dloss`.
template <typename Scalar>
void softmax_cross_entropy_backward(const SoftmaxCrossEntropyCache<Scalar>& cache, Scalar dloss,
                                    Matrix<Scalar>& dlogits);

}  // namespace claimrag::nn
