#pragma once
// Adam (Kingma & Ba, 2015) over a parameter registry, with bias correction, as torch.optim.Adam.

#include <vector>

#include "claimrag/nn/parameter.hpp"

namespace claimrag::nn {

struct AdamOptions {
  double learning_rate = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
  double weight_decay = 0.0;  ///< L2 added to the gradient (torch's Adam, not AdamW)
};

/// Keeps the first and second moments of every parameter of one registry.
template <typename Scalar>
class Adam {
 public:
  Adam(ParameterRegistry<Scalar>& registry, AdamOptions options);
  /// One update of every parameter from its current gradient.
  void step();
  [[nodiscard]] long steps_taken() const { return step_; }

 private:
  ParameterRegistry<Scalar>& registry_;
  AdamOptions options_;
  std::vector<Matrix<Scalar>> first_moment_;
  std::vector<Matrix<Scalar>> second_moment_;
  long step_ = 0;
};

}  // namespace claimrag::nn
