#include <gtest/gtest.h>

#include "claimrag/nn/l2_normalize.hpp"

using claimrag::nn::Matrix;

TEST(L2Normalize, ForwardDividesEachRowByItsNorm) {
  Matrix<double> x(2, 2);
  x << 3, 4,  //
      0, -2;
  Matrix<double> out;
  claimrag::nn::L2NormalizeCache<double> cache;
  claimrag::nn::l2_normalize_forward(x, out, cache);
  Matrix<double> expected(2, 2);
  expected << 0.6, 0.8,  //
      0, -1;
  EXPECT_EQ(out, expected);
  EXPECT_EQ(cache.norms(0), 5.0);
  EXPECT_EQ(cache.norms(1), 2.0);
}

TEST(L2Normalize, ZeroRowStaysZeroAndPassesGradientThroughEpsilon) {
  Matrix<double> x = Matrix<double>::Zero(1, 3);
  Matrix<double> out;
  claimrag::nn::L2NormalizeCache<double> cache;
  claimrag::nn::l2_normalize_forward(x, out, cache);
  EXPECT_EQ(out, Matrix<double>::Zero(1, 3));
  Matrix<double> dout(1, 3);
  dout << 1e-12, 0, -2e-12;
  Matrix<double> dx = Matrix<double>::Zero(1, 3);
  claimrag::nn::l2_normalize_backward(cache, dout, dx);
  EXPECT_DOUBLE_EQ(dx(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(dx(0, 2), -2.0);
}

TEST(L2Normalize, BackwardKeepsTheComponentOrthogonalToTheOutput) {
  Matrix<double> x(1, 2);
  x << 3, 4;
  Matrix<double> out;
  claimrag::nn::L2NormalizeCache<double> cache;
  claimrag::nn::l2_normalize_forward(x, out, cache);
  Matrix<double> dout(1, 2);
  dout << 1, 0;
  Matrix<double> dx = Matrix<double>::Constant(1, 2, 10.0);  // backward adds
  claimrag::nn::l2_normalize_backward(cache, dout, dx);
  // y = (0.6, 0.8); (dout − y (y·dout)) / 5 = ((1, 0) − 0.6 (0.6, 0.8)) / 5 = (0.128, −0.096).
  EXPECT_NEAR(dx(0, 0), 10.128, 1e-15);
  EXPECT_NEAR(dx(0, 1), 10.0 - 0.096, 1e-15);
}
