#include "claimrag/nn/feed_forward.hpp"

#include <cmath>
#include <numbers>

namespace claimrag::nn {

template <typename Scalar>
FeedForward<Scalar> make_feed_forward(ParameterRegistry<Scalar>& registry, const std::string& name,
                                      Eigen::Index d, Eigen::Index hidden, std::mt19937_64& rng) {
  FeedForward<Scalar> block;
  block.expand = make_linear(registry, name + ".expand", d, hidden, rng);
  block.contract = make_linear(registry, name + ".contract", hidden, d, rng);
  return block;
}

template <typename Scalar>
Scalar gelu(Scalar z) {
  return Scalar(0.5) * z * (Scalar(1) + std::erf(z / static_cast<Scalar>(std::numbers::sqrt2)));
}

template <typename Scalar>
Scalar gelu_derivative(Scalar z) {
  const Scalar cdf = Scalar(0.5) * (Scalar(1) + std::erf(z / static_cast<Scalar>(std::numbers::sqrt2)));
  const Scalar pdf = static_cast<Scalar>(std::numbers::inv_sqrtpi / std::numbers::sqrt2) *
                     std::exp(Scalar(-0.5) * z * z);
  return cdf + z * pdf;
}

template <typename Scalar>
void feed_forward_forward(const Matrix<Scalar>& x, const FeedForward<Scalar>& block, Matrix<Scalar>& y,
                          FeedForwardCache<Scalar>& cache) {
  // x: n × d, pre_activation/activation: n × hidden, y: n × d
  cache.input = x;
  linear_forward(x, block.expand, cache.pre_activation);
  cache.activation = cache.pre_activation.unaryExpr([](Scalar z) { return gelu(z); });
  linear_forward(cache.activation, block.contract, y);
}

template <typename Scalar>
void feed_forward_backward(const FeedForwardCache<Scalar>& cache, const FeedForward<Scalar>& block,
                           const Matrix<Scalar>& dy, Matrix<Scalar>& dx) {
  // dy: n × d, dactivation: n × hidden, dx: n × d
  Matrix<Scalar> dactivation = Matrix<Scalar>::Zero(cache.activation.rows(), cache.activation.cols());
  linear_backward(cache.activation, block.contract, dy, &dactivation);
  const Matrix<Scalar> dpre = dactivation.cwiseProduct(
      cache.pre_activation.unaryExpr([](Scalar z) { return gelu_derivative(z); }));
  linear_backward(cache.input, block.expand, dpre, &dx);
}

#define CLAIMRAG_INSTANTIATE(Scalar)                                                                 \
  template FeedForward<Scalar> make_feed_forward<Scalar>(ParameterRegistry<Scalar>&,                 \
                                                         const std::string&, Eigen::Index,          \
                                                         Eigen::Index, std::mt19937_64&);           \
  template Scalar gelu<Scalar>(Scalar);                                                              \
  template Scalar gelu_derivative<Scalar>(Scalar);                                                   \
  template void feed_forward_forward<Scalar>(const Matrix<Scalar>&, const FeedForward<Scalar>&,      \
                                             Matrix<Scalar>&, FeedForwardCache<Scalar>&);            \
  template void feed_forward_backward<Scalar>(const FeedForwardCache<Scalar>&,                       \
                                              const FeedForward<Scalar>&, const Matrix<Scalar>&,     \
                                              Matrix<Scalar>&);
CLAIMRAG_INSTANTIATE(float)
CLAIMRAG_INSTANTIATE(double)
#undef CLAIMRAG_INSTANTIATE

}  // namespace claimrag::nn
