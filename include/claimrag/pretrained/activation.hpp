#pragma once
// The activation functions named by Hugging Face configurations (hidden_act, pooler_hidden_act),
// computed in float32 as the reference library computes them.

#include <string>

#include "claimrag/nn/parameter.hpp"

namespace claimrag::pretrained {

enum class Activation {
  gelu,       ///< "gelu": x Φ(x) with the exact error function
  gelu_tanh,  ///< "gelu_new", "gelu_pytorch_tanh": the tanh approximation
  gelu_fast,  ///< "gelu_fast": the tanh approximation written as x (1 + 0.044715 x²)
  relu,
  tanh,
  silu,       ///< "silu", "swish"
  identity,   ///< "linear"
};

/// The activation named `name`; DataError "file: unknown <key> 'x' (supported: ...)" otherwise.
Activation parse_activation(const std::string& name, const std::string& file, const std::string& key);

/// Applies `activation` to every element of `values`, in place.
void apply_activation(Activation activation, nn::Matrix<float>& values);

}  // namespace claimrag::pretrained
