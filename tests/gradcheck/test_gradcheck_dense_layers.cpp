// Finite-difference checks of the dense encoder's two layers on their own: the mean-pooled
// embedding bag (gradient with respect to the table) and row-wise L2 normalisation.

#include <gtest/gtest.h>

#include "relative_error.hpp"

#include <cmath>
#include <random>

#include "claimrag/nn/embedding_bag.hpp"
#include "claimrag/nn/l2_normalize.hpp"

using claimrag::nn::Matrix;

using claimrag::gradcheck::relative_error;

namespace {

constexpr double kLayerStep = 1e-5;
constexpr double kLayerMaxRelativeError = 1e-7;

Matrix<double> random_matrix(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Matrix<double> m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
  return m;
}

// A scalar loss of a layer's output: Σ weight ⊙ output, whose gradient is `weight`.
double weighted_sum(const Matrix<double>& output, const Matrix<double>& weight) {
  return output.cwiseProduct(weight).sum();
}

}  // namespace

TEST(GradcheckEmbeddingBag, TableGradientAtRandomPoints) {
  for (std::uint64_t seed : {11, 12, 13}) {
    std::mt19937_64 rng(seed);
    Matrix<double> table = random_matrix(7, 4, rng);
    claimrag::nn::TokenBags bags;
    bags.add(std::vector<std::int32_t>{0, 3, 3, 6});
    bags.add(std::vector<std::int32_t>{});
    bags.add(std::vector<std::int32_t>{3, 1});
    const Matrix<double> weight = random_matrix(3, 4, rng);
    Matrix<double> analytic = Matrix<double>::Zero(7, 4);
    claimrag::nn::embedding_bag_mean_backward(bags, weight, analytic);
    for (Eigen::Index i = 0; i < table.size(); ++i) {
      Matrix<double> plus = table, minus = table, out_plus, out_minus;
      plus.data()[i] += kLayerStep;
      minus.data()[i] -= kLayerStep;
      claimrag::nn::embedding_bag_mean_forward(plus, bags, out_plus);
      claimrag::nn::embedding_bag_mean_forward(minus, bags, out_minus);
      const double numeric = (weighted_sum(out_plus, weight) - weighted_sum(out_minus, weight)) / (2 * kLayerStep);
      EXPECT_LT(relative_error(analytic.data()[i], numeric, 1e-8), kLayerMaxRelativeError) << "seed " << seed << " entry " << i;
    }
  }
}

TEST(GradcheckL2Normalize, InputGradientAtRandomPoints) {
  for (std::uint64_t seed : {21, 22, 23}) {
    std::mt19937_64 rng(seed);
    const Matrix<double> x = random_matrix(4, 5, rng);
    const Matrix<double> weight = random_matrix(4, 5, rng);
    Matrix<double> out;
    claimrag::nn::L2NormalizeCache<double> cache;
    claimrag::nn::l2_normalize_forward(x, out, cache);
    Matrix<double> analytic = Matrix<double>::Zero(4, 5);
    claimrag::nn::l2_normalize_backward(cache, weight, analytic);
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      Matrix<double> plus = x, minus = x, out_plus, out_minus;
      plus.data()[i] += kLayerStep;
      minus.data()[i] -= kLayerStep;
      claimrag::nn::L2NormalizeCache<double> scratch;
      claimrag::nn::l2_normalize_forward(plus, out_plus, scratch);
      claimrag::nn::l2_normalize_forward(minus, out_minus, scratch);
      const double numeric = (weighted_sum(out_plus, weight) - weighted_sum(out_minus, weight)) / (2 * kLayerStep);
      EXPECT_LT(relative_error(analytic.data()[i], numeric, 1e-8), kLayerMaxRelativeError) << "seed " << seed << " entry " << i;
    }
  }
}
