// Finite-difference check of nn::softmax_cross_entropy_backward, unweighted and weighted.

#include <gtest/gtest.h>

#include "relative_error.hpp"

#include <cmath>
#include <random>

#include "claimrag/nn/softmax_cross_entropy.hpp"

using claimrag::nn::Matrix;

using claimrag::gradcheck::relative_error;

namespace {

// Large enough that the loss's rounding (~1e-16) stays far below the smallest entries checked.
constexpr double kSoftmaxStep = 1e-4;
constexpr double kSoftmaxMaxRelativeError = 1e-7;

void check_softmax_at(std::uint64_t seed, bool weighted) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 2.0);
  std::uniform_int_distribution<std::int32_t> target(0, 4);
  std::uniform_real_distribution<double> weight(0.1, 3.0);
  Matrix<double> logits(6, 5);
  for (Eigen::Index i = 0; i < logits.size(); ++i) logits.data()[i] = normal(rng);
  std::vector<std::int32_t> targets(6);
  for (auto& t : targets) t = target(rng);
  std::vector<double> weights;
  if (weighted) {
    for (int r = 0; r < 6; ++r) weights.push_back(weight(rng));
  }

  claimrag::nn::SoftmaxCrossEntropyCache<double> cache;
  claimrag::nn::softmax_cross_entropy_forward(logits, targets, weights, cache);
  const double dloss = 1.7;  // a non-unit upstream gradient must scale the result
  Matrix<double> analytic = Matrix<double>::Zero(6, 5);
  claimrag::nn::softmax_cross_entropy_backward(cache, dloss, analytic);

  for (Eigen::Index i = 0; i < logits.size(); ++i) {
    Matrix<double> plus = logits, minus = logits;
    plus.data()[i] += kSoftmaxStep;
    minus.data()[i] -= kSoftmaxStep;
    claimrag::nn::SoftmaxCrossEntropyCache<double> scratch;
    const double numeric = dloss *
                           (claimrag::nn::softmax_cross_entropy_forward(plus, targets, weights, scratch) -
                            claimrag::nn::softmax_cross_entropy_forward(minus, targets, weights, scratch)) /
                           (2 * kSoftmaxStep);
    EXPECT_LT(relative_error(analytic.data()[i], numeric, 1e-8), kSoftmaxMaxRelativeError)
        << "seed " << seed << " entry " << i << ": analytic " << analytic.data()[i] << ", numeric " << numeric;
  }
}

}  // namespace

TEST(GradcheckSoftmaxCrossEntropy, Unweighted) {
  for (std::uint64_t seed : {1, 2, 3, 4}) check_softmax_at(seed, false);
}

TEST(GradcheckSoftmaxCrossEntropy, Weighted) {
  for (std::uint64_t seed : {5, 6, 7, 8}) check_softmax_at(seed, true);
}
