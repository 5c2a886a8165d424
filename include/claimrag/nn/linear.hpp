#pragma once
// Affine layer y = x·W + b over a batch of rows.

#include <random>
#include <string>

#include "claimrag/nn/parameter.hpp"

namespace claimrag::nn {

/// The two parameters of an affine layer: weight (in × out) and bias (1 × out).
template <typename Scalar>
struct Linear {
  Parameter<Scalar>* weight = nullptr;
  Parameter<Scalar>* bias = nullptr;
};

/// Registers `<name>.weight` (in × out, Glorot-uniform from `rng`) and `<name>.bias` (1 × out,
/// zero). Glorot keeps the activations' variance near 1 through layers of any width.
template <typename Scalar>
Linear<Scalar> make_linear(ParameterRegistry<Scalar>& registry, const std::string& name,
                           Eigen::Index in, Eigen::Index out, std::mt19937_64& rng);

/// y (n × out) = x (n × in) · weight + bias.
template <typename Scalar>
void linear_forward(const Matrix<Scalar>& x, const Linear<Scalar>& layer, Matrix<Scalar>& y);

/// Given dy (n × out) and the forward input x (n × in): adds xᵀ·dy into weight.grad, the column
/// sums of dy into bias.grad and, when `dx` is not null, dy·weightᵀ into *dx (n × in).
template <typename Scalar>
void linear_backward(const Matrix<Scalar>& x, const Linear<Scalar>& layer, const Matrix<Scalar>& dy,
                     Matrix<Scalar>* dx);

}  // namespace claimrag::nn
