#include "claimrag/nn/adam.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "claimrag/kernels/adam_update.hpp"

namespace claimrag::nn {

template <typename Scalar>
Adam<Scalar>::Adam(ParameterRegistry<Scalar>& registry, AdamOptions options)
    : registry_(registry), options_(options) {
  for (std::size_t i = 0; i < registry_.size(); ++i) {
    const auto& value = registry_[i].value;
    first_moment_.push_back(Matrix<Scalar>::Zero(value.rows(), value.cols()));
    second_moment_.push_back(Matrix<Scalar>::Zero(value.rows(), value.cols()));
  }
}

template <typename Scalar>
void Adam<Scalar>::step() {
  ++step_;
  const auto beta1 = static_cast<Scalar>(options_.beta1);
  const auto beta2 = static_cast<Scalar>(options_.beta2);
  const auto epsilon = static_cast<Scalar>(options_.epsilon);
  const auto decay = static_cast<Scalar>(options_.weight_decay);
  const double correction1 = 1.0 - std::pow(options_.beta1, static_cast<double>(step_));
  const double correction2 = 1.0 - std::pow(options_.beta2, static_cast<double>(step_));
  const auto step_size = static_cast<Scalar>(options_.learning_rate / correction1);
  const auto root_correction2 = static_cast<Scalar>(std::sqrt(correction2));
  for (std::size_t i = 0; i < registry_.size(); ++i) {
    auto& parameter = registry_[i];
    if constexpr (std::is_same_v<Scalar, float>) {
      // On the widest vector unit, every operation correctly rounded (Eigen's vectorised float
      // square root below is an approximation whose last bits depend on the CPU's maker).
      // Each entry is updated on its own, so blocks of a large table go to the threads with the
      // same bytes as one pass (an embedding table is most of a small model's entries).
      const kernels::AdamStep constants{beta1, beta2, step_size, root_correction2, epsilon, decay, true};
      constexpr std::ptrdiff_t kBlock = 1 << 15;
      const std::ptrdiff_t entries = parameter.value.size();
      const std::ptrdiff_t blocks = (entries + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static) if (blocks > 1)
      for (std::ptrdiff_t block = 0; block < blocks; ++block) {
        const std::ptrdiff_t begin = block * kBlock;
        kernels::adam_update(constants, parameter.value.data() + begin, first_moment_[i].data() + begin,
                             second_moment_[i].data() + begin, parameter.grad.data() + begin,
                             static_cast<std::size_t>(std::min(kBlock, entries - begin)));
      }
    } else {
      auto gradient = parameter.grad.array() + decay * parameter.value.array();
      auto m = first_moment_[i].array();
      auto v = second_moment_[i].array();
      m = beta1 * m + (Scalar(1) - beta1) * gradient;
      v = beta2 * v + (Scalar(1) - beta2) * gradient.square();
      parameter.value.array() -= step_size * m / (v.sqrt() / root_correction2 + epsilon);
    }
  }
}

template class Adam<float>;
template class Adam<double>;

}  // namespace claimrag::nn
