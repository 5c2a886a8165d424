#include "claimrag/nn/l2_normalize.hpp"

#include <algorithm>
#include <cmath>

#include "claimrag/error.hpp"

namespace claimrag::nn {

template <typename Scalar>
void l2_normalize_forward(const Matrix<Scalar>& x, Matrix<Scalar>& out,
                          L2NormalizeCache<Scalar>& cache) {
  // x, out: n × dim.
  const auto epsilon = static_cast<Scalar>(kL2NormalizeEpsilon);
  cache.norms.resize(x.rows());
  out.resize(x.rows(), x.cols());
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const Scalar norm = std::max(x.row(r).norm(), epsilon);
    cache.norms(r) = norm;
    out.row(r) = x.row(r) / norm;
  }
  cache.output = out;
}

template <typename Scalar>
void l2_normalize_backward(const L2NormalizeCache<Scalar>& cache, const Matrix<Scalar>& dout,
                           Matrix<Scalar>& dx) {
  // dout, dx: n × dim.
  if (dout.rows() != cache.output.rows() || dout.cols() != cache.output.cols() ||
      dx.rows() != dout.rows() || dx.cols() != dout.cols()) {
    throw InternalError("l2_normalize_backward: shapes do not match");
  }
  const auto epsilon = static_cast<Scalar>(kL2NormalizeEpsilon);
  for (Eigen::Index r = 0; r < dout.rows(); ++r) {
    const Scalar norm = cache.norms(r);
    if (norm > epsilon) {
      // Only the component of dout orthogonal to y changes the direction of x.
      const Scalar along = cache.output.row(r).dot(dout.row(r));
      dx.row(r) += (dout.row(r) - along * cache.output.row(r)) / norm;
    } else {
      dx.row(r) += dout.row(r) / epsilon;
    }
  }
}

template void l2_normalize_forward<float>(const Matrix<float>&, Matrix<float>&, L2NormalizeCache<float>&);
template void l2_normalize_forward<double>(const Matrix<double>&, Matrix<double>&, L2NormalizeCache<double>&);
template void l2_normalize_backward<float>(const L2NormalizeCache<float>&, const Matrix<float>&, Matrix<float>&);
template void l2_normalize_backward<double>(const L2NormalizeCache<double>&, const Matrix<double>&, Matrix<double>&);

}  // namespace claimrag::nn
