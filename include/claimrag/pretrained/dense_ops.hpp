#pragma once
// The few dense operations of an encoder's forward pass, on row-major float32 matrices whose rows
// are tokens. Each runs on the calling thread: callers parallelise across stacks of sequences, so
// the bytes do not depend on the thread count. These products (attention's, per sequence, and the
// few layers not packed at load: embedding and relative-position projections, heads) go to
// OpenBLAS's single-precision GEMM held to one thread; the encoder layers' linear products run on
// packed weights (packed_linear.hpp).

#include "claimrag/nn/parameter.hpp"
#include "claimrag/pretrained/encoder_weights.hpp"

namespace claimrag::pretrained {

/// A row-major block read in place: a whole matrix or some of its columns (middleCols).
using ConstRowBlock = Eigen::Ref<const nn::Matrix<float>, 0, Eigen::OuterStride<>>;
/// A row-major block written in place; it must already have its final shape.
using RowBlock = Eigen::Ref<nn::Matrix<float>, 0, Eigen::OuterStride<>>;

/// out = scale · a bᵀ for a [m, k], b [n, k], out [m, n]; with `accumulate`, out += scale · a bᵀ.
void multiply_by_transpose(const ConstRowBlock& a, const ConstRowBlock& b, RowBlock out, float scale = 1.0F,
                           bool accumulate = false);

/// out = a b for a [m, k], b [k, n], out [m, n].
void multiply(const ConstRowBlock& a, const ConstRowBlock& b, RowBlock out);

/// y = x Wᵀ + b for x [n, in]; y [n, out].
void linear_forward(const nn::Matrix<float>& x, const LinearWeights& layer, nn::Matrix<float>& y);

/// Normalises each row of `x` [n, size] in place with the layer's gain, bias and eps.
void layer_norm_in_place(nn::Matrix<float>& x, const LayerNormWeights& norm);

/// Replaces each row of `scores` by its softmax (the maximum subtracted first).
void softmax_rows_in_place(nn::Matrix<float>& scores);

}  // namespace claimrag::pretrained
