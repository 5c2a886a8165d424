#include "claimrag/nn/layer_norm.hpp"

#include <cmath>

namespace claimrag::nn {

template <typename Scalar>
LayerNorm<Scalar> make_layer_norm(ParameterRegistry<Scalar>& registry, const std::string& name,
                                  Eigen::Index d, double epsilon) {
  LayerNorm<Scalar> layer;
  layer.gain = &registry.add(name + ".gain", 1, d);
  layer.shift = &registry.add(name + ".shift", 1, d);
  layer.gain->value.setOnes();
  layer.epsilon = epsilon;
  return layer;
}

template <typename Scalar>
void layer_norm_forward(const Matrix<Scalar>& x, const LayerNorm<Scalar>& layer, Matrix<Scalar>& y,
                        LayerNormCache<Scalar>& cache) {
  // x: n × d, gain/shift: 1 × d, y: n × d
  const Eigen::Index n = x.rows();
  const auto d = static_cast<Scalar>(x.cols());
  cache.normalised.resize(n, x.cols());
  cache.inverse_std.resize(n);
  for (Eigen::Index r = 0; r < n; ++r) {
    const Scalar mean = x.row(r).sum() / d;
    const auto centred = x.row(r).array() - mean;
    const Scalar variance = centred.square().sum() / d;
    const Scalar inverse_std = Scalar(1) / std::sqrt(variance + static_cast<Scalar>(layer.epsilon));
    cache.inverse_std(r) = inverse_std;
    cache.normalised.row(r) = centred * inverse_std;
  }
  y.resize(n, x.cols());
  y.array() = (cache.normalised.array().rowwise() * layer.gain->value.row(0).array()).rowwise() +
              layer.shift->value.row(0).array();
}

template <typename Scalar>
void layer_norm_backward(const LayerNormCache<Scalar>& cache, const LayerNorm<Scalar>& layer,
                         const Matrix<Scalar>& dy, Matrix<Scalar>& dx) {
  // dy: n × d, dx: n × d
  const Eigen::Index n = dy.rows();
  const auto d = static_cast<Scalar>(dy.cols());
  layer.gain->grad.row(0) += (dy.array() * cache.normalised.array()).colwise().sum().matrix();
  layer.shift->grad.row(0) += dy.colwise().sum();
  for (Eigen::Index r = 0; r < n; ++r) {
    const auto dnormalised = (dy.row(r).array() * layer.gain->value.row(0).array()).eval();
    const auto xhat = cache.normalised.row(r).array();
    const Scalar mean_d = dnormalised.sum() / d;
    const Scalar mean_d_xhat = (dnormalised * xhat).sum() / d;
    dx.row(r).array() += cache.inverse_std(r) * (dnormalised - mean_d - xhat * mean_d_xhat);
  }
}

#define CLAIMRAG_INSTANTIATE(Scalar)                                                               \
  template LayerNorm<Scalar> make_layer_norm<Scalar>(ParameterRegistry<Scalar>&, const std::string&, \
                                                     Eigen::Index, double);                         \
  template void layer_norm_forward<Scalar>(const Matrix<Scalar>&, const LayerNorm<Scalar>&,        \
                                           Matrix<Scalar>&, LayerNormCache<Scalar>&);              \
  template void layer_norm_backward<Scalar>(const LayerNormCache<Scalar>&, const LayerNorm<Scalar>&, \
                                            const Matrix<Scalar>&, Matrix<Scalar>&);
CLAIMRAG_INSTANTIATE(float)
CLAIMRAG_INSTANTIATE(double)
#undef CLAIMRAG_INSTANTIATE

}  // namespace claimrag::nn
