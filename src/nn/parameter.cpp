#include "claimrag/nn/parameter.hpp"

#include "claimrag/error.hpp"

namespace claimrag::nn {

template <typename Scalar>
Parameter<Scalar>& ParameterRegistry<Scalar>::add(const std::string& name, Eigen::Index rows,
                                                  Eigen::Index cols) {
  for (const auto& existing : parameters_) {
    if (existing->name == name) throw InternalError("parameter registered twice: " + name);
  }
  auto parameter = std::make_unique<Parameter<Scalar>>();
  parameter->name = name;
  parameter->value = Matrix<Scalar>::Zero(rows, cols);
  parameter->grad = Matrix<Scalar>::Zero(rows, cols);
  parameters_.push_back(std::move(parameter));
  return *parameters_.back();
}

template <typename Scalar>
void ParameterRegistry<Scalar>::zero_grad() {
  for (auto& parameter : parameters_) parameter->grad.setZero();
}

template <typename Scalar>
std::size_t ParameterRegistry<Scalar>::scalar_count() const {
  std::size_t count = 0;
  for (const auto& parameter : parameters_) count += static_cast<std::size_t>(parameter->value.size());
  return count;
}

template <typename Scalar>
Parameter<Scalar>& ParameterRegistry<Scalar>::find(const std::string& name) {
  for (auto& parameter : parameters_) {
    if (parameter->name == name) return *parameter;
  }
  throw InternalError("no parameter named " + name);
}

template <typename Scalar>
const Parameter<Scalar>& ParameterRegistry<Scalar>::find(const std::string& name) const {
  return const_cast<ParameterRegistry*>(this)->find(name);
}

template <typename Scalar>
void init_normal(Matrix<Scalar>& value, double stddev, std::mt19937_64& rng) {
  // std::normal_distribution is implementation-defined across standard libraries; the project
  // pins one (libstdc++), and determinism is tested on it.
  std::normal_distribution<double> normal(0.0, stddev);
  for (Eigen::Index i = 0; i < value.size(); ++i) value.data()[i] = static_cast<Scalar>(normal(rng));
}

template <typename Scalar>
void init_uniform(Matrix<Scalar>& value, double bound, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(-bound, bound);
  for (Eigen::Index i = 0; i < value.size(); ++i) value.data()[i] = static_cast<Scalar>(uniform(rng));
}

template class ParameterRegistry<float>;
template class ParameterRegistry<double>;
template void init_normal<float>(Matrix<float>&, double, std::mt19937_64&);
template void init_normal<double>(Matrix<double>&, double, std::mt19937_64&);
template void init_uniform<float>(Matrix<float>&, double, std::mt19937_64&);
template void init_uniform<double>(Matrix<double>&, double, std::mt19937_64&);

}  // namespace claimrag::nn
