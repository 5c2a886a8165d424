#pragma once
// Row-wise L2 normalisation, y = x / max(‖x‖, ε), as torch.nn.functional.normalize.

#include "claimrag/nn/parameter.hpp"

namespace claimrag::nn {

/// The smallest norm divided by; a zero row stays zero instead of becoming NaN.
inline constexpr double kL2NormalizeEpsilon = 1e-12;

/// What the backward pass needs.
template <typename Scalar>
struct L2NormalizeCache {
  Matrix<Scalar> output;  ///< n × dim, the normalised rows
  Vector<Scalar> norms;   ///< n, the divisor used for each row: max(‖x_i‖, ε)
};

/// `out` (n × dim) = every row of `x` (n × dim) divided by max(its norm, ε); fills `cache`.
template <typename Scalar>
void l2_normalize_forward(const Matrix<Scalar>& x, Matrix<Scalar>& out,
                          L2NormalizeCache<Scalar>& cache);

/// Adds d(loss)/dx into `dx` (n × dim) given `dout` (n × dim):
/// dx_i += (dout_i − y_i (y_i·dout_i)) / ‖x_i‖ where the norm exceeded ε, dout_i / ε elsewhere.
template <typename Scalar>
void l2_normalize_backward(const L2NormalizeCache<Scalar>& cache, const Matrix<Scalar>& dout,
                           Matrix<Scalar>& dx);

}  // namespace claimrag::nn
