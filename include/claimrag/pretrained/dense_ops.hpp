#pragma once
// The few dense operations of an encoder's forward pass, on row-major float32 matrices whose rows
// are tokens. Each runs on the calling thread: callers parallelise across sequences, so the bytes
// do not depend on the thread count.

#include "claimrag/nn/parameter.hpp"
#include "claimrag/pretrained/encoder_weights.hpp"

namespace claimrag::pretrained {

/// y = x Wᵀ + b for x [n, in]; y [n, out].
void linear_forward(const nn::Matrix<float>& x, const LinearWeights& layer, nn::Matrix<float>& y);

/// Normalises each row of `x` [n, size] in place with the layer's gain, bias and eps.
void layer_norm_in_place(nn::Matrix<float>& x, const LayerNormWeights& norm);

/// Replaces each row of `scores` by its softmax (the maximum subtracted first).
void softmax_rows_in_place(nn::Matrix<float>& scores);

}  // namespace claimrag::pretrained
