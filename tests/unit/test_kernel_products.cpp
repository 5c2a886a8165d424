// The trainers' matrix products: every vector unit gives the bytes of the portable fused
// multiply-add chain for every operand form and start, on edge shapes; the result is the product
// (against a double-precision sum); a product of part of a matrix reads and writes only its block;
// the row tiles cover every row once.

#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/kernels/products.hpp"
#include "claimrag/kernels/row_tiles.hpp"
#include "random_matrices.hpp"

namespace claimrag::kernels {
namespace {

using testing::random_matrix;
using testing::same_bytes;

struct Shape {
  Eigen::Index rows;
  Eigen::Index depth;
  Eigen::Index outputs;
};

// Rows not a multiple of 6 or 12 (6k + 1, 2, 3: a split last tile on AVX2), outputs not a multiple of 16, 32 or 64, depth 1
// and long: a multiple of the AVX2 kernel's blocks of 256 inputs (1024) and not (700, with a half-panel of 13 outputs).
const std::vector<Shape> kShapes = {{1, 1, 1},   {5, 7, 3},     {13, 64, 40}, {64, 1024, 64}, {25, 33, 97},
                                    {7, 128, 130}, {8, 70, 50}, {33, 129, 65}, {19, 700, 45}};
const Operand kForms[] = {Operand::plain, Operand::transposed};

// op(m) stored so that op gives rows × cols.
RowMatrix operand(Operand form, Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
  return form == Operand::plain ? RowMatrix(random_matrix(rows, cols, seed))
                                : RowMatrix(random_matrix(cols, rows, seed));
}

double element(const RowMatrix& m, Operand form, Eigen::Index r, Eigen::Index c) {
  return form == Operand::plain ? m(r, c) : m(c, r);
}

TEST(KernelProducts, EveryUnitGivesTheBytesOfTheScalarChainForEveryForm) {
  for (const auto& shape : kShapes) {
    for (const Operand a_form : kForms) {
      for (const Operand b_form : kForms) {
        const RowMatrix a = operand(a_form, shape.rows, shape.depth, 1);
        const RowMatrix b = operand(b_form, shape.depth, shape.outputs, 2);
        const RowMatrix start = random_matrix(shape.rows, shape.outputs, 3);
        for (const Start from : {Start::zero, Start::output}) {
          RowMatrix scalar = start;
          multiply(a, a_form, b, b_form, scalar, from, VectorUnit::scalar);
          for (const VectorUnit unit : available_vector_units()) {
            RowMatrix c = start;
            multiply(a, a_form, b, b_form, c, from, unit);
            EXPECT_TRUE(same_bytes(scalar, c)) << vector_unit_name(unit) << " " << shape.rows << "×" << shape.depth
                                               << "×" << shape.outputs;
          }
          // The chain itself: start, then one fused multiply-add per k in order.
          for (Eigen::Index r = 0; r < shape.rows; r += 4) {
            for (Eigen::Index j = 0; j < shape.outputs; j += 3) {
              float chain = from == Start::output ? start(r, j) : 0.0F;
              for (Eigen::Index k = 0; k < shape.depth; ++k) {
                chain = std::fma(static_cast<float>(element(a, a_form, r, k)), static_cast<float>(element(b, b_form, k, j)), chain);
              }
              EXPECT_EQ(chain, scalar(r, j));
            }
          }
        }
      }
    }
  }
}

// The tiles over_row_tiles runs, as (first row, rows) pairs.
using TileLog = std::vector<std::pair<Eigen::Index, int>>;

template <int Rows>
struct LoggedTile {
  static void run(Eigen::Index first_row, TileLog* const& log) { log->emplace_back(first_row, Rows); }
};

TileLog tiles_over(Eigen::Index rows) {
  TileLog log;
  over_row_tiles<LoggedTile, 6, 4>(rows, &log);
  return log;
}

TEST(KernelRowTiles, FullTilesThenTheRestOrALastFullTileAndAShortRestSplitInTwo) {
  EXPECT_EQ(tiles_over(0), TileLog{});
  EXPECT_EQ(tiles_over(2), (TileLog{{0, 2}}));
  EXPECT_EQ(tiles_over(12), (TileLog{{0, 6}, {6, 6}}));
  EXPECT_EQ(tiles_over(10), (TileLog{{0, 6}, {6, 4}}));
  EXPECT_EQ(tiles_over(7), (TileLog{{0, 4}, {4, 3}}));
  EXPECT_EQ(tiles_over(14), (TileLog{{0, 6}, {6, 4}, {10, 4}}));
  EXPECT_EQ(tiles_over(15), (TileLog{{0, 6}, {6, 5}, {11, 4}}));
}

TEST(KernelProducts, TheResultIsTheProduct) {
  const Shape shape{37, 130, 100};
  const RowMatrix a = random_matrix(shape.rows, shape.depth, 4);
  const RowMatrix b = random_matrix(shape.depth, shape.outputs, 5);
  const RowMatrix bias = random_matrix(1, shape.outputs, 6);
  RowMatrix c(shape.rows, shape.outputs);
  multiply_add_bias(a, b, bias, c);
  const Eigen::MatrixXd exact = (a.cast<double>() * b.cast<double>()).rowwise() + bias.cast<double>().row(0);
  EXPECT_LT((c.cast<double>() - exact).cwiseAbs().maxCoeff(), 1e-4 * std::sqrt(static_cast<double>(shape.depth)) * 4);
  EXPECT_GT((c.cast<double>() - exact).cwiseAbs().maxCoeff(), 0.0) << "a float chain is not exact on random data";
}

TEST(KernelProducts, ABlockProductTouchesOnlyItsBlock) {
  const RowMatrix a = random_matrix(20, 16, 7);
  const RowMatrix b = random_matrix(20, 24, 8);
  RowMatrix c = random_matrix(30, 40, 9);
  const RowMatrix before = c;
  // c[2:12, 5:15] += a[3:13, 4:12] · b[6:14, 10:20]
  multiply(a.block(3, 4, 10, 8), Operand::plain, b.block(6, 10, 8, 10), Operand::plain, c.block(2, 5, 10, 10),
           Start::output);
  const RowMatrix whole_a = a.block(3, 4, 10, 8), whole_b = b.block(6, 10, 8, 10);
  RowMatrix expected = before.block(2, 5, 10, 10);
  multiply(whole_a, Operand::plain, whole_b, Operand::plain, expected, Start::output);
  EXPECT_TRUE(same_bytes(RowMatrix(c.block(2, 5, 10, 10)), expected));
  RowMatrix outside = c;
  outside.block(2, 5, 10, 10) = before.block(2, 5, 10, 10);
  EXPECT_TRUE(same_bytes(outside, before));
}

TEST(KernelProducts, MismatchedShapesAreAnInternalError) {
  const RowMatrix a = random_matrix(3, 4, 1), b = random_matrix(5, 6, 2);
  RowMatrix c(3, 6);
  EXPECT_THROW(multiply(a, Operand::plain, b, Operand::plain, c, Start::zero), InternalError);
  RowMatrix wrong(4, 6);
  const RowMatrix b4 = random_matrix(4, 6, 3);
  EXPECT_THROW(multiply(a, Operand::plain, b4, Operand::plain, wrong, Start::zero), InternalError);
  EXPECT_THROW(multiply_add_bias(a, b4, random_matrix(1, 5, 4), c), InternalError);
}

}  // namespace
}  // namespace claimrag::kernels
