// Adam's vectorised update: every unit gives the bytes of the update written element by element
// with correctly rounded operations, with and without weight decay, on lengths with and without
// a remainder past the last full vector. (Not Eigen's array expression of it: Eigen's vectorised
// float square root is an approximate reciprocal square root refined once, whose last bits
// depend on the CPU's maker.)

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "claimrag/kernels/adam_update.hpp"
#include "random_matrices.hpp"

namespace claimrag::kernels {
namespace {

using testing::random_matrix;
using testing::same_bytes;
using Row = nn::Matrix<float>;

// One element at a time, each operation rounded once.
void reference_update(const AdamStep& s, Row& value, Row& first, Row& second, const Row& gradient) {
  for (Eigen::Index i = 0; i < value.size(); ++i) {
    const float g = s.with_decay ? gradient(0, i) + s.weight_decay * value(0, i) : gradient(0, i);
    const float m = s.beta1 * first(0, i) + (1.0F - s.beta1) * g;
    const float v = s.beta2 * second(0, i) + (1.0F - s.beta2) * (g * g);
    first(0, i) = m;
    second(0, i) = v;
    value(0, i) -= (s.step_size * m) / (std::sqrt(v) / s.root_correction2 + s.epsilon);
  }
}

TEST(KernelAdamUpdate, EveryUnitGivesTheBytesOfTheUpdateElementByElement) {
  for (const bool with_decay : {false, true}) {
    const AdamStep step{0.9F, 0.999F, 0.0123F, 0.0447F, 1e-8F, 0.01F, with_decay};
    for (const Eigen::Index n : {1, 7, 8, 15, 16, 17, 64, 100, 1000}) {
      const Row value = random_matrix(1, n, 1), gradient = random_matrix(1, n, 2);
      const Row first = random_matrix(1, n, 3) * 0.1F;
      const Row second = random_matrix(1, n, 4).cwiseAbs() * 0.01F;
      Row expected_value = value, expected_first = first, expected_second = second;
      // Three steps, so that the moments the update wrote are read again.
      for (int t = 0; t < 3; ++t) reference_update(step, expected_value, expected_first, expected_second, gradient);
      for (const VectorUnit unit : available_vector_units()) {
        Row v = value, m = first, s = second;
        for (int t = 0; t < 3; ++t) {
          adam_update(step, v.data(), m.data(), s.data(), gradient.data(), static_cast<std::size_t>(n), unit);
        }
        EXPECT_TRUE(same_bytes(v, expected_value)) << vector_unit_name(unit) << " n " << n << " decay " << with_decay;
        EXPECT_TRUE(same_bytes(m, expected_first)) << vector_unit_name(unit) << " n " << n;
        EXPECT_TRUE(same_bytes(s, expected_second)) << vector_unit_name(unit) << " n " << n;
        EXPECT_FALSE(same_bytes(v, value)) << "the update moved nothing";
      }
    }
  }
}

}  // namespace
}  // namespace claimrag::kernels
