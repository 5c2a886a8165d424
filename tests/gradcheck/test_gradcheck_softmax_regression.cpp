// Finite-difference check of linear::softmax_gradient against softmax_objective, with and
// without class weights.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "claimrag/linear/softmax_regression.hpp"

using namespace claimrag::linear;

namespace {

void check_regression_at(std::uint64_t seed, bool weighted) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  RowMatrixXd X(7, 4);
  for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] = normal(rng);
  const std::vector<int> labels{0, 1, 2, 2, 1, 0, 2};
  SoftmaxRegressionOptions options;
  options.l2 = 0.3;
  options.bias_l2 = 0.05;
  if (weighted) options.class_weights = {0.5, 2.0, 1.3};
  SoftmaxRegressionModel model;
  Eigen::VectorXd theta(3 * 5);
  for (Eigen::Index i = 0; i < theta.size(); ++i) theta(i) = normal(rng);
  model.set_parameters(theta, 3, 4);
  const Eigen::VectorXd analytic = softmax_gradient(X, labels, model, options);
  const double h = 1e-5;
  for (Eigen::Index i = 0; i < theta.size(); ++i) {
    SoftmaxRegressionModel plus = model, minus = model;
    Eigen::VectorXd up = theta, down = theta;
    up(i) += h;
    down(i) -= h;
    plus.set_parameters(up, 3, 4);
    minus.set_parameters(down, 3, 4);
    const double numeric = (softmax_objective(X, labels, plus, options) - softmax_objective(X, labels, minus, options)) / (2 * h);
    const double scale = std::max(std::abs(analytic(i)) + std::abs(numeric), 1e-8);
    EXPECT_LT(std::abs(analytic(i) - numeric) / scale, 1e-7) << "parameter " << i;
  }
}

}  // namespace

TEST(GradcheckSoftmaxRegression, Unweighted) { check_regression_at(42, false); }
TEST(GradcheckSoftmaxRegression, ClassWeighted) { check_regression_at(7, true); }
