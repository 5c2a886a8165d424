#pragma once
// Central-difference gradient checking shared by the transformer and verifier checks.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "claimrag/nn/parameter.hpp"

namespace claimrag::gradcheck {

using nn::Matrix;

/// Step of the central differences; their truncation error is O(step²) ≈ 1e-12 and their
/// rounding error ≈ 1e-16 / step ≈ 1e-10 for losses of order 1.
inline constexpr double kStep = 1e-6;
/// Bound on |analytic - numeric| / max(|analytic| + |numeric|, kFloor).
inline constexpr double kRelativeBound = 1e-6;
/// Keeps the relative error meaningful for gradients that are (or should be) zero.
inline constexpr double kFloor = 1e-2;

inline Matrix<double> random_matrix(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng,
                                    double stddev = 1.0) {
  Matrix<double> m(rows, cols);
  nn::init_normal(m, stddev, rng);
  return m;
}

/// Compares `analytic` with the central differences of `loss()` with respect to every entry of
/// `variable` (which `loss` reads); restores `variable`.
template <typename Loss>
void expect_gradient(Matrix<double>& variable, const Matrix<double>& analytic, Loss&& loss,
                     const std::string& what) {
  ASSERT_EQ(variable.rows(), analytic.rows()) << what;
  ASSERT_EQ(variable.cols(), analytic.cols()) << what;
  double worst = 0;
  for (Eigen::Index i = 0; i < variable.size(); ++i) {
    const double saved = variable.data()[i];
    variable.data()[i] = saved + kStep;
    const double plus = loss();
    variable.data()[i] = saved - kStep;
    const double minus = loss();
    variable.data()[i] = saved;
    const double numeric = (plus - minus) / (2 * kStep);
    const double a = analytic.data()[i];
    const double error = std::abs(a - numeric) / std::max(std::abs(a) + std::abs(numeric), kFloor);
    worst = std::max(worst, error);
    EXPECT_LT(error, kRelativeBound) << what << " entry " << i << ": analytic " << a << ", numeric " << numeric;
  }
  EXPECT_LT(worst, kRelativeBound) << what;
}

/// Σ weights ⊙ y: a loss whose gradient with respect to y is `weights`.
inline double weighted_sum(const Matrix<double>& y, const Matrix<double>& weights) {
  return y.cwiseProduct(weights).sum();
}

}  // namespace claimrag::gradcheck
