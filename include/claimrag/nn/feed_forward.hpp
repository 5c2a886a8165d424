#pragma once
// The transformer's position-wise feed-forward block: y = GELU(x·W1 + b1)·W2 + b2, with the
// exact (erf) GELU as BERT: GELU(z) = z·Φ(z). GELU rather than ReLU because it is what the
// encoders this verifier imitates use, and it has no dead units in a model trained for seconds.

#include <random>
#include <string>

#include "claimrag/nn/linear.hpp"

namespace claimrag::nn {

/// expand: d → hidden, contract: hidden → d.
template <typename Scalar>
struct FeedForward {
  Linear<Scalar> expand;
  Linear<Scalar> contract;
};

/// What the backward pass needs.
template <typename Scalar>
struct FeedForwardCache {
  Matrix<Scalar> input;           ///< n × d
  Matrix<Scalar> pre_activation;  ///< n × hidden
  Matrix<Scalar> activation;      ///< n × hidden
};

/// Registers `<name>.expand.*` (d × hidden) and `<name>.contract.*` (hidden × d).
template <typename Scalar>
FeedForward<Scalar> make_feed_forward(ParameterRegistry<Scalar>& registry, const std::string& name,
                                      Eigen::Index d, Eigen::Index hidden, std::mt19937_64& rng);

/// GELU(z) = z·Φ(z) elementwise, and its derivative Φ(z) + z·φ(z).
template <typename Scalar>
Scalar gelu(Scalar z);
template <typename Scalar>
Scalar gelu_derivative(Scalar z);

/// y (n × d) from x (n × d).
template <typename Scalar>
void feed_forward_forward(const Matrix<Scalar>& x, const FeedForward<Scalar>& block, Matrix<Scalar>& y,
                          FeedForwardCache<Scalar>& cache);

/// Given dy (n × d): adds into the four parameters' gradients and into dx (n × d).
template <typename Scalar>
void feed_forward_backward(const FeedForwardCache<Scalar>& cache, const FeedForward<Scalar>& block,
                           const Matrix<Scalar>& dy, Matrix<Scalar>& dx);

}  // namespace claimrag::nn
