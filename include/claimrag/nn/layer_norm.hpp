#pragma once
// Layer normalisation over each row (Ba et al., 2016): y = (x - mean) / sqrt(var + eps) · γ + β,
// with the biased variance, as torch.nn.LayerNorm.

#include <random>
#include <string>

#include "claimrag/nn/parameter.hpp"

namespace claimrag::nn {

/// gain γ (1 × d, initialised to 1) and shift β (1 × d, initialised to 0).
template <typename Scalar>
struct LayerNorm {
  Parameter<Scalar>* gain = nullptr;
  Parameter<Scalar>* shift = nullptr;
  double epsilon = 1e-5;
};

/// What the backward pass needs.
template <typename Scalar>
struct LayerNormCache {
  Matrix<Scalar> normalised;    ///< n × d, (x - mean) / sqrt(var + eps)
  Vector<Scalar> inverse_std;   ///< n, 1 / sqrt(var + eps)
};

/// Registers `<name>.gain` and `<name>.shift` for rows of width d.
template <typename Scalar>
LayerNorm<Scalar> make_layer_norm(ParameterRegistry<Scalar>& registry, const std::string& name,
                                  Eigen::Index d, double epsilon = 1e-5);

/// y (n × d) = the row-wise normalisation of x (n × d).
template <typename Scalar>
void layer_norm_forward(const Matrix<Scalar>& x, const LayerNorm<Scalar>& layer, Matrix<Scalar>& y,
                        LayerNormCache<Scalar>& cache);

/// Given dy (n × d): adds into gain.grad, shift.grad and dx (n × d).
template <typename Scalar>
void layer_norm_backward(const LayerNormCache<Scalar>& cache, const LayerNorm<Scalar>& layer,
                         const Matrix<Scalar>& dy, Matrix<Scalar>& dx);

}  // namespace claimrag::nn
