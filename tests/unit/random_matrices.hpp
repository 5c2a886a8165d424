#pragma once
// Random float matrices and a byte-for-byte comparison, for tests of the encoders' products.

#include <cstring>
#include <random>

#include "claimrag/nn/parameter.hpp"

namespace claimrag::testing {

/// rows × cols standard normal values drawn from `seed`.
inline nn::Matrix<float> random_matrix(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.0F, 1.0F);
  nn::Matrix<float> m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
  return m;
}

/// Whether `a` and `b` have the same shape and the same bytes.
inline bool same_bytes(const nn::Matrix<float>& a, const nn::Matrix<float>& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(float)) == 0;
}

}  // namespace claimrag::testing
