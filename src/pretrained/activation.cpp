#include "claimrag/pretrained/activation.hpp"

#include <cmath>
#include <unsupported/Eigen/SpecialFunctions>

#include "claimrag/error.hpp"

namespace claimrag::pretrained {

Activation parse_activation(const std::string& name, const std::string& file, const std::string& key) {
  if (name == "gelu") return Activation::gelu;
  if (name == "gelu_new" || name == "gelu_pytorch_tanh") return Activation::gelu_tanh;
  if (name == "gelu_fast") return Activation::gelu_fast;
  if (name == "relu") return Activation::relu;
  if (name == "tanh") return Activation::tanh;
  if (name == "silu" || name == "swish") return Activation::silu;
  if (name == "linear") return Activation::identity;
  throw DataError(file, "unknown " + key + " '" + name +
                            "' (supported: gelu, gelu_new, gelu_pytorch_tanh, gelu_fast, relu, tanh, silu, swish, linear)");
}

namespace {

// The activations other than the GELUs, one value at a time.
float activate(Activation activation, float x) {
  switch (activation) {
    case Activation::relu: return x > 0.0F ? x : 0.0F;
    case Activation::tanh: return std::tanh(x);
    case Activation::silu: return x / (1.0F + std::exp(-x));
    default: return x;
  }
}

}  // namespace

void apply_activation(Activation activation, nn::Matrix<float>& values) {
  constexpr float kSqrtHalf = 0.70710678118654752440F;
  constexpr float kSqrtTwoOverPi = 0.79788456080286535588F;
  // The GELUs run over every feed-forward value of every layer: Eigen's vectorised erf and tanh
  // (rational approximations within a few float32 ulps) keep them a small part of the time, where
  // std::erf one value at a time cost about a tenth of a BERT forward.
  auto x = values.array();
  switch (activation) {
    case Activation::gelu: x = 0.5F * x * (1.0F + (x * kSqrtHalf).erf()); return;
    case Activation::gelu_tanh: x = 0.5F * x * (1.0F + (kSqrtTwoOverPi * (x + 0.044715F * x.cube())).tanh()); return;
    case Activation::gelu_fast: x = 0.5F * x * (1.0F + (x * kSqrtTwoOverPi * (1.0F + 0.044715F * x.square())).tanh()); return;
    default: break;
  }
  float* data = values.data();
  const auto count = values.size();
  for (Eigen::Index i = 0; i < count; ++i) data[i] = activate(activation, data[i]);
}

}  // namespace claimrag::pretrained
