#include "claimrag/nn/linear.hpp"

#include <cmath>
#include <type_traits>

#include "claimrag/error.hpp"
#include "claimrag/nn/matrix_products.hpp"

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
  if constexpr (std::is_same_v<Scalar, float>) {
    kernels::multiply_add_bias(x, weight, layer.bias->value, y);  // every chain starts from its bias
  } else {
    y.noalias() = x * weight;
    y.rowwise() += layer.bias->value.row(0);
  }
}

template <typename Scalar>
void linear_backward(const Matrix<Scalar>& x, const Linear<Scalar>& layer, const Matrix<Scalar>& dy,
                     Matrix<Scalar>* dx) {
  // x: n × in, dy: n × out, dx: n × in
  multiply(x, Operand::transposed, dy, Operand::plain, layer.weight->grad, Start::output);
  layer.bias->grad.row(0) += dy.colwise().sum();
  if (dx != nullptr) multiply(dy, Operand::plain, layer.weight->value, Operand::transposed, *dx, Start::output);
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
