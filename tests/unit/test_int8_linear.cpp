// The int8 linear product: every vector unit this CPU runs gives the same bytes, a row's result
// does not depend on the rows stacked with it, and the result is the float product to within the
// rounding of weights and activations to 8 bits.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/int8_linear.hpp"
#include "random_matrices.hpp"

namespace claimrag::pretrained {
namespace {

using testing::random_matrix;
using testing::same_bytes;

TEST(Int8Linear, EveryKernelGivesTheSameBytes) {
  struct Shape {
    Eigen::Index rows, inputs, outputs;
  };
  // Inputs not a multiple of 4 (padded groups), outputs not a multiple of 16 or 32, rows not of 6 or 12.
  for (const Shape shape : {Shape{1, 1, 1}, Shape{5, 7, 3}, Shape{13, 66, 40}, Shape{25, 130, 17}, Shape{12, 768, 64}}) {
    const LinearWeights layer{random_matrix(shape.outputs, shape.inputs, 1), random_matrix(1, shape.outputs, 2)};
    const nn::Matrix<float> x = random_matrix(shape.rows, shape.inputs, 3);
    nn::Matrix<float> scalar;
    Int8Linear(layer, Int8Kernel::scalar).apply(x, scalar);
    for (const Int8Kernel kernel : Int8Linear::available_kernels()) {
      nn::Matrix<float> y;
      Int8Linear(layer, kernel).apply(x, y);
      EXPECT_TRUE(same_bytes(scalar, y)) << int8_kernel_name(kernel) << " on " << shape.rows << "×" << shape.inputs << "→" << shape.outputs;
    }
  }
}

TEST(Int8Linear, EveryKernelRoundsTiesToEvenAndClampsAlike) {
  // A row whose largest magnitude is 127 has scale 1, so its halves are ties: 0.5 → 0, 1.5 → 2,
  // 2.5 → 2, -3.5 → -4; 70 inputs run the vector loops and their scalar tails. A second row
  // holds a NaN, a third is all zero.
  const Eigen::Index inputs = 70;
  nn::Matrix<float> x = nn::Matrix<float>::Zero(3, inputs);
  for (Eigen::Index k = 0; k < inputs; ++k) x(0, k) = (k % 2 == 0 ? 1.0F : -1.0F) * (0.5F + static_cast<float>(k % 9));
  x(0, 33) = -127.0F;
  x(1, 40) = std::numeric_limits<float>::quiet_NaN();
  const LinearWeights layer{random_matrix(40, inputs, 1), random_matrix(1, 40, 2)};
  nn::Matrix<float> scalar;
  Int8Linear(layer, Int8Kernel::scalar).apply(x, scalar);
  for (const Int8Kernel kernel : Int8Linear::available_kernels()) {
    nn::Matrix<float> y;
    Int8Linear(layer, kernel).apply(x, y);
    EXPECT_TRUE(same_bytes(scalar.row(0), y.row(0))) << int8_kernel_name(kernel);
    for (Eigen::Index j = 0; j < 40; ++j) {
      EXPECT_TRUE(std::isnan(y(1, j))) << int8_kernel_name(kernel);
      EXPECT_EQ(y(2, j), layer.bias(0, j)) << int8_kernel_name(kernel);
    }
  }
}

TEST(Int8Linear, ARowGivesTheSameBytesAloneAndStacked) {
  const LinearWeights layer{random_matrix(70, 200, 4), random_matrix(1, 70, 5)};
  const nn::Matrix<float> x = random_matrix(29, 200, 6);
  for (const Int8Kernel kernel : Int8Linear::available_kernels()) {
    const Int8Linear quantized(layer, kernel);
    nn::Matrix<float> stacked;
    quantized.apply(x, stacked);
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
      nn::Matrix<float> alone;
      quantized.apply(x.row(r), alone);
      EXPECT_TRUE(same_bytes(alone, stacked.row(r))) << int8_kernel_name(kernel) << " row " << r;
    }
  }
}

TEST(Int8Linear, StaysWithinTheRoundingOfWeightsAndActivations) {
  const Eigen::Index inputs = 768;
  const LinearWeights layer{random_matrix(96, inputs, 7), random_matrix(1, 96, 8)};
  const nn::Matrix<float> x = random_matrix(20, inputs, 9);
  nn::Matrix<float> y;
  Int8Linear(layer).apply(x, y);
  // Each factor is rounded to a step of max/127 (about 3.3/127 for 768 unit normals): an error of
  // standard deviation step/sqrt(12) ≈ 0.0075 in x and in w, so each product is off by about
  // sqrt(2) · 0.0075 and a sum of 768 by sqrt(768) · 0.0106 ≈ 0.29, while the sums themselves
  // spread by sqrt(768) ≈ 27.7: a relative RMS error near 1 %.
  double squared_error = 0.0;
  double squared_value = 0.0;
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    for (Eigen::Index j = 0; j < layer.weight.rows(); ++j) {
      double exact = layer.bias(0, j);
      for (Eigen::Index k = 0; k < inputs; ++k) exact += static_cast<double>(x(r, k)) * layer.weight(j, k);
      squared_error += (exact - y(r, j)) * (exact - y(r, j));
      squared_value += exact * exact;
    }
  }
  const double relative = std::sqrt(squared_error / squared_value);
  EXPECT_GT(relative, 0.002);  // int8 is an approximation: a tiny error would mean it was not applied
  EXPECT_LT(relative, 0.015);
}

TEST(Int8Linear, AZeroRowGivesTheBiasAndANonFiniteRowGivesNaN) {
  const LinearWeights layer{random_matrix(40, 10, 1), random_matrix(1, 40, 2)};
  nn::Matrix<float> x = nn::Matrix<float>::Zero(2, 10);
  x(1, 3) = std::numeric_limits<float>::infinity();
  nn::Matrix<float> y;
  Int8Linear(layer).apply(x, y);
  for (Eigen::Index j = 0; j < 40; ++j) {
    EXPECT_EQ(y(0, j), layer.bias(0, j));
    EXPECT_TRUE(std::isnan(y(1, j)));
  }
}

TEST(Int8Linear, HoldsAQuarterOfTheFloatWeightOrHalfInInt16Pairs) {
  // 70 outputs make 3 panels of 32 (96 padded outputs); 250 inputs make 63 groups of 4 (252).
  const LinearWeights layer{random_matrix(70, 250, 1), random_matrix(1, 70, 2)};
  const std::size_t padded_weights = 96U * 252U;
  for (const Int8Kernel kernel : Int8Linear::available_kernels()) {
    const Int8Linear quantized(layer, kernel);
    EXPECT_EQ(quantized.inputs(), 250);
    EXPECT_EQ(quantized.outputs(), 70);
    // Scales and bias per padded output; VNNI adds the corrections of its unsigned activations.
    const bool vnni = kernel == Int8Kernel::avx_vnni || kernel == Int8Kernel::avx512_vnni;
    const std::size_t per_output = 2 * sizeof(float) + (vnni ? sizeof(std::int32_t) : 0);
    // A byte per weight (a quarter of float32's), or an int16 per weight on AVX2 (a half).
    const std::size_t weight_bytes = padded_weights * (kernel == Int8Kernel::avx2 ? sizeof(std::int16_t) : 1);
    EXPECT_EQ(quantized.bytes(), weight_bytes + 96U * per_output) << int8_kernel_name(kernel);
  }
}

TEST(Int8Linear, VnniOffLeavesBothVnniKernelsOutAndOtherValuesAreRefused) {
  const auto restore = [previous = std::getenv("CLAIMRAG_INT8_VNNI")] {
    if (previous == nullptr) {
      ::unsetenv("CLAIMRAG_INT8_VNNI");
    } else {
      ::setenv("CLAIMRAG_INT8_VNNI", previous, 1);
    }
  };
  ::setenv("CLAIMRAG_INT8_VNNI", "off", 1);
  const Int8Kernel without = Int8Linear::best_kernel();
  EXPECT_TRUE(without == Int8Kernel::scalar || without == Int8Kernel::avx2) << int8_kernel_name(without);
  ::setenv("CLAIMRAG_INT8_VNNI", "no", 1);
  EXPECT_THROW(Int8Linear::best_kernel(), UsageError);
  restore();
}

}  // namespace
}  // namespace claimrag::pretrained
