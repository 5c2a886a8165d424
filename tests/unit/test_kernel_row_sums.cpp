// The embedding bag's row sums on the vector units: every unit gives the bytes of Eigen's row
// additions (what the embedding bag computed before them), with repeated ids, widths with and
// without a remainder past the last full vector, and rows of a wider table.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "claimrag/kernels/row_sums.hpp"
#include "random_matrices.hpp"

namespace claimrag::kernels {
namespace {

using testing::random_matrix;
using testing::same_bytes;
using Rows = nn::Matrix<float>;

const std::vector<std::int32_t> kIds = {3, 0, 7, 3, 3, 9, 1, 0, 5, 2, 8, 3};

TEST(KernelRowSums, EveryUnitGivesTheBytesOfEigensRowAdditions) {
  const Rows table = random_matrix(10, 150, 1);
  for (const Eigen::Index width : {1, 7, 16, 33, 128, 150}) {
    for (const std::size_t count : {std::size_t{1}, std::size_t{5}, kIds.size()}) {
      const std::span<const std::int32_t> ids(kIds.data(), count);
      Rows expected = Rows::Zero(1, width);
      for (const std::int32_t id : ids) expected.row(0) += table.row(id).head(width);
      expected.row(0) /= static_cast<float>(count);
      for (const VectorUnit unit : available_vector_units()) {
        Rows out = random_matrix(1, width, 2);  // overwritten, not added to
        mean_of_rows(table.data(), table.outerStride(), ids, width, out.data(), unit);
        EXPECT_TRUE(same_bytes(out, expected)) << vector_unit_name(unit) << " width " << width << " ids " << count;
      }
    }
  }
}

TEST(KernelRowSums, AddingToRowsGivesEveryRepeatItsShareInOrder) {
  const Rows start = random_matrix(10, 40, 3);
  const Rows share = random_matrix(1, 40, 4);
  for (const Eigen::Index width : {1, 9, 16, 32}) {
    Rows expected = start;
    for (const std::int32_t id : kIds) {
      for (Eigen::Index c = 0; c < width; ++c) expected(id, 4 + c) += share(0, c);
    }
    for (const VectorUnit unit : available_vector_units()) {
      Rows table = start;
      add_to_rows(table.data() + 4, table.outerStride(), kIds, width, share.data(), unit);
      EXPECT_TRUE(same_bytes(table, expected)) << vector_unit_name(unit) << " width " << width;
    }
  }
}

}  // namespace
}  // namespace claimrag::kernels
