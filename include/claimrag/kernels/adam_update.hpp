#pragma once
// Adam's elementwise update of float parameters on the widest vector unit. Every element takes
// the same operations in the same order as the portable code (each one correctly rounded, none
// fused), so every unit gives the same bytes. Eigen's array expression of the same update does
// not: its vectorised float square root is an approximate reciprocal square root refined once,
// whose last bits depend on the CPU's maker.

#include <cstddef>

#include "claimrag/kernels/vector_unit.hpp"

namespace claimrag::kernels {

/// The constants of one Adam step, in float, computed once per step by the optimiser.
struct AdamStep {
  float beta1 = 0;
  float beta2 = 0;
  float step_size = 0;         ///< learning rate / (1 − beta1^t)
  float root_correction2 = 0;  ///< sqrt(1 − beta2^t)
  float epsilon = 0;
  float weight_decay = 0;
  bool with_decay = false;  ///< whether the gradient is g + weight_decay · value (nn::Adam) or g
};

/// For each i < n, with g = gradient[i] (+ weight_decay · value[i]):
///   m = beta1·m + (1 − beta1)·g;  v = beta2·v + (1 − beta2)·(g·g);
///   value −= (step_size·m) / (sqrt(v) / root_correction2 + epsilon).
void adam_update(const AdamStep& step, float* value, float* first, float* second, const float* gradient,
                 std::size_t n);

/// The same on a chosen unit (one of available_vector_units()).
void adam_update(const AdamStep& step, float* value, float* first, float* second, const float* gradient,
                 std::size_t n, VectorUnit unit);

}  // namespace claimrag::kernels
