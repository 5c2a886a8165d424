#pragma once
// Multi-head scaled dot-product self-attention (Vaswani et al., 2017) over a batch of padded
// sequences, with the padding masked: query i of sequence b attends to keys 0..lengths[b]-1
// only, so a padded key receives exactly zero weight and a padded position's content cannot
// reach any output but its own (the mask is applied by restricting the softmax to the valid
// keys, which is exact where adding -inf to the scores is only approximately so in floats).
//
// Layout: sequence b occupies rows b·seq_len .. b·seq_len + seq_len - 1 of the input. Only the
// first `query_len` positions of each sequence produce an output: query_len = seq_len is an
// ordinary layer; query_len = 1 computes the [CLS] row alone, which is all a one-layer
// classifier reads, at a fraction of the cost.

#include <random>
#include <string>
#include <vector>

#include "claimrag/nn/linear.hpp"

namespace claimrag::nn {

/// The batch layout: `batch` sequences padded to `seq_len`, the first `query_len` of each
/// attending. Preconditions: 1 ≤ query_len ≤ seq_len.
struct AttentionShape {
  Eigen::Index batch = 0;
  Eigen::Index seq_len = 0;
  Eigen::Index query_len = 0;
};

/// Four d × d projections (query, key, value, output); d must be a multiple of `heads`.
template <typename Scalar>
struct MultiHeadAttention {
  Linear<Scalar> query;
  Linear<Scalar> key;
  Linear<Scalar> value;
  Linear<Scalar> output;
  Eigen::Index heads = 1;
};

/// What the backward pass needs.
template <typename Scalar>
struct AttentionCache {
  AttentionShape shape;
  std::vector<Eigen::Index> lengths;
  Matrix<Scalar> input;          ///< batch·seq_len × d
  Matrix<Scalar> query_input;    ///< batch·query_len × d, the attending rows of `input`
  Matrix<Scalar> queries;        ///< batch·query_len × d
  Matrix<Scalar> keys;           ///< batch·seq_len × d
  Matrix<Scalar> values;         ///< batch·seq_len × d
  Matrix<Scalar> weights;        ///< batch·heads·query_len × seq_len, zero beyond each length
  Matrix<Scalar> context;        ///< batch·query_len × d, heads side by side
};

/// Registers `<name>.{query,key,value,output}.*`, each d × d.
template <typename Scalar>
MultiHeadAttention<Scalar> make_attention(ParameterRegistry<Scalar>& registry, const std::string& name,
                                          Eigen::Index d, Eigen::Index heads, std::mt19937_64& rng);

/// y (batch·query_len × d) from x (batch·seq_len × d); lengths[b] ∈ [1, seq_len] is the number
/// of valid (unpadded) positions of sequence b.
template <typename Scalar>
void attention_forward(const Matrix<Scalar>& x, const std::vector<Eigen::Index>& lengths,
                       const AttentionShape& shape, const MultiHeadAttention<Scalar>& layer,
                       Matrix<Scalar>& y, AttentionCache<Scalar>& cache);

/// Given dy (batch·query_len × d): adds into the projections' gradients and into dx
/// (batch·seq_len × d). Padded rows of dx receive nothing except, when they attend
/// (query_len > length), through their own query.
template <typename Scalar>
void attention_backward(const AttentionCache<Scalar>& cache, const MultiHeadAttention<Scalar>& layer,
                        const Matrix<Scalar>& dy, Matrix<Scalar>& dx);

}  // namespace claimrag::nn
