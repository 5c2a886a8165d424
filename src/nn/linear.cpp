#include "claimrag/nn/linear.hpp"

#include <cmath>

#include "claimrag/error.hpp"

namespace claimrag::nn {

template <typename Scalar>
Linear<Scalar> make_linear(ParameterRegistry<Scalar>& registry, const std::string& name,
                           Eigen::Index in, Eigen::Index out, std::mt19937_64& rng) {
  Linear<Scalar> layer;
  layer.weight = &registry.add(name + ".weight", in, out);
  layer.bias = &registry.add(name + ".bias", 1, out);
  init_uniform(layer.weight->value, std::sqrt(6.0 / static_cast<double>(in + out)), rng);
  return layer;
}

template <typename Scalar>
void linear_forward(const Matrix<Scalar>& x, const Linear<Scalar>& layer, Matrix<Scalar>& y) {
  // x: n × in, weight: in × out, bias: 1 × out, y: n × out
  const auto& weight = layer.weight->value;
  if (x.cols() != weight.rows()) throw InternalError("linear_forward: input width does not match the weight");
  y.resize(x.rows(), weight.cols());
  y.noalias() = x * weight;
  y.rowwise() += layer.bias->value.row(0);
}

template <typename Scalar>
void linear_backward(const Matrix<Scalar>& x, const Linear<Scalar>& layer, const Matrix<Scalar>& dy,
                     Matrix<Scalar>* dx) {
  // x: n × in, dy: n × out, dx: n × in
  layer.weight->grad.noalias() += x.transpose() * dy;
  layer.bias->grad.row(0) += dy.colwise().sum();
  if (dx != nullptr) dx->noalias() += dy * layer.weight->value.transpose();
}

#define CLAIMRAG_INSTANTIATE(Scalar)                                                              \
  template Linear<Scalar> make_linear<Scalar>(ParameterRegistry<Scalar>&, const std::string&,      \
                                              Eigen::Index, Eigen::Index, std::mt19937_64&);       \
  template void linear_forward<Scalar>(const Matrix<Scalar>&, const Linear<Scalar>&, Matrix<Scalar>&); \
  template void linear_backward<Scalar>(const Matrix<Scalar>&, const Linear<Scalar>&,              \
                                        const Matrix<Scalar>&, Matrix<Scalar>*);
CLAIMRAG_INSTANTIATE(float)
CLAIMRAG_INSTANTIATE(double)
#undef CLAIMRAG_INSTANTIATE

}  // namespace claimrag::nn
