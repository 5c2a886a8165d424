// The packed linear product: every vector unit this CPU runs gives the bytes of the portable
// fused-multiply-add chain, a row's result does not depend on the rows stacked with it, and the
// result is the product itself (against a double-precision sum).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/packed_linear.hpp"
#include "random_matrices.hpp"

namespace claimrag::pretrained {
namespace {

using testing::random_matrix;
using testing::same_bytes;

struct Shape {
  Eigen::Index rows;
  Eigen::Index inputs;
  Eigen::Index outputs;
};

// Edge tiles on every side: rows not a multiple of 6 or 12, outputs not a multiple of 16 or 32,
// rows 6k + 1, 2 and 3 (an AVX2 last tile split in two), a single input, a single output.
const std::vector<Shape> kShapes = {{1, 1, 1},   {5, 7, 3},     {13, 64, 40}, {25, 33, 17},  {12, 96, 64},
                                    {37, 130, 100}, {7, 768, 33}, {14, 40, 33}, {9, 300, 20}, {32, 1100, 70}};

TEST(PackedLinear, EveryVectorUnitGivesTheBytesOfTheScalarChain) {
  for (const auto& shape : kShapes) {
    const LinearWeights layer{random_matrix(shape.outputs, shape.inputs, 1), random_matrix(1, shape.outputs, 2)};
    const PackedLinear packed(layer);
    const nn::Matrix<float> x = random_matrix(shape.rows, shape.inputs, 3);
    nn::Matrix<float> scalar;
    packed.apply(x, scalar, VectorUnit::scalar);
    for (const VectorUnit unit : available_vector_units()) {
      nn::Matrix<float> y;
      packed.apply(x, y, unit);
      EXPECT_TRUE(same_bytes(scalar, y)) << vector_unit_name(unit) << " on " << shape.rows << "×" << shape.inputs << "→" << shape.outputs;
    }
  }
}

TEST(PackedLinear, ARowGivesTheSameBytesAloneAndInAnyStack) {
  const LinearWeights layer{random_matrix(70, 200, 4), random_matrix(1, 70, 5)};
  const PackedLinear packed(layer);
  const nn::Matrix<float> x = random_matrix(29, 200, 6);
  for (const VectorUnit unit : available_vector_units()) {
    nn::Matrix<float> stacked;
    packed.apply(x, stacked, unit);
    // Each row alone, and inside stacks that put it in every position of a tile.
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
      nn::Matrix<float> alone;
      packed.apply(x.row(r), alone, unit);
      EXPECT_TRUE(same_bytes(alone, stacked.row(r))) << vector_unit_name(unit) << " row " << r;
    }
    for (Eigen::Index first = 1; first < 13; ++first) {
      nn::Matrix<float> part;
      packed.apply(x.middleRows(first, x.rows() - first), part, unit);
      EXPECT_TRUE(same_bytes(part, stacked.middleRows(first, x.rows() - first))) << vector_unit_name(unit) << " from row " << first;
    }
  }
}

TEST(PackedLinear, ComputesTheProductAndTheBias) {
  const Shape shape{9, 300, 45};
  const LinearWeights layer{random_matrix(shape.outputs, shape.inputs, 7), random_matrix(1, shape.outputs, 8)};
  const nn::Matrix<float> x = random_matrix(shape.rows, shape.inputs, 9);
  nn::Matrix<float> y;
  PackedLinear(layer).apply(x, y);
  ASSERT_EQ(y.rows(), shape.rows);
  ASSERT_EQ(y.cols(), shape.outputs);
  for (Eigen::Index r = 0; r < shape.rows; ++r) {
    for (Eigen::Index j = 0; j < shape.outputs; ++j) {
      double sum = layer.bias(0, j);
      for (Eigen::Index k = 0; k < shape.inputs; ++k) sum += static_cast<double>(x(r, k)) * layer.weight(j, k);
      // 300 products of unit normals: the sum is ~17 in size, float32 keeps ~1e-6 of it per step.
      EXPECT_NEAR(y(r, j), sum, 1e-4) << r << ", " << j;
    }
  }
  // Without a bias the outputs start from zero.
  nn::Matrix<float> unbiased;
  PackedLinear(LinearWeights{layer.weight, {}}).apply(x, unbiased);
  EXPECT_NEAR(unbiased(2, 3), y(2, 3) - layer.bias(0, 3), 1e-4);
}

TEST(PackedLinear, KnowsItsShapeAndRefusesAnotherInputWidth) {
  const PackedLinear packed(LinearWeights{random_matrix(40, 10, 1), random_matrix(1, 40, 2)});
  EXPECT_EQ(packed.inputs(), 10);
  EXPECT_EQ(packed.outputs(), 40);
  // Two panels of 32 outputs, each with its 10 inputs and a bias row.
  EXPECT_EQ(packed.bytes(), 2U * 32U * 11U * sizeof(float));
  nn::Matrix<float> y;
  EXPECT_THROW(packed.apply(random_matrix(3, 11, 3), y), InternalError);
}

TEST(PackedLinear, TheScalarUnitIsAlwaysAvailableAndTheBestIsOneOfThem) {
  const auto units = available_vector_units();
  ASSERT_FALSE(units.empty());
  EXPECT_EQ(units.front(), VectorUnit::scalar);
  EXPECT_NE(std::find(units.begin(), units.end(), best_vector_unit()), units.end());
}

}  // namespace
}  // namespace claimrag::pretrained
