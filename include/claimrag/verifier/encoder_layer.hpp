#pragma once
// One transformer encoder layer, post-LN as BERT:
//   h = LayerNorm(x + Attention(x)),  y = LayerNorm(h + FeedForward(h)).
// Post-LN because a single layer trained for a few epochs has none of the depth that makes
// pre-LN's better-conditioned gradients matter, and it matches the encoders it imitates.
// No dropout: the runs are short, and leaving it out keeps training free of extra random draws.
//
// Only the first `query_len` positions of each sequence go through the residuals, the norms and
// the feed-forward block (see nn/attention.hpp): the output has batch·query_len rows.

#include <random>
#include <string>
#include <vector>

#include "claimrag/nn/attention.hpp"
#include "claimrag/nn/feed_forward.hpp"
#include "claimrag/nn/layer_norm.hpp"

namespace claimrag::verifier {

template <typename Scalar>
struct EncoderLayer {
  nn::MultiHeadAttention<Scalar> attention;
  nn::LayerNorm<Scalar> attention_norm;
  nn::FeedForward<Scalar> feed_forward;
  nn::LayerNorm<Scalar> output_norm;
};

/// What the backward pass needs.
template <typename Scalar>
struct EncoderLayerCache {
  nn::AttentionCache<Scalar> attention;
  nn::LayerNormCache<Scalar> attention_norm;
  nn::Matrix<Scalar> hidden;  ///< batch·query_len × d, the attention block's output
  nn::FeedForwardCache<Scalar> feed_forward;
  nn::LayerNormCache<Scalar> output_norm;
};

/// Registers `<name>.attention.*`, `<name>.attention_norm.*`, `<name>.feed_forward.*`,
/// `<name>.output_norm.*` for width d, `heads` heads (d divisible by heads) and a feed-forward
/// hidden width d_ff.
template <typename Scalar>
EncoderLayer<Scalar> make_encoder_layer(nn::ParameterRegistry<Scalar>& registry, const std::string& name,
                                        Eigen::Index d, Eigen::Index heads, Eigen::Index d_ff,
                                        std::mt19937_64& rng);

/// y (batch·query_len × d) from x (batch·seq_len × d) and the valid lengths (nn::attention_forward).
template <typename Scalar>
void encoder_layer_forward(const nn::Matrix<Scalar>& x, const std::vector<Eigen::Index>& lengths,
                           const nn::AttentionShape& shape, const EncoderLayer<Scalar>& layer,
                           nn::Matrix<Scalar>& y, EncoderLayerCache<Scalar>& cache);

/// Given dy (batch·query_len × d): adds into every parameter's gradient and into dx
/// (batch·seq_len × d).
template <typename Scalar>
void encoder_layer_backward(const EncoderLayerCache<Scalar>& cache, const EncoderLayer<Scalar>& layer,
                            const nn::Matrix<Scalar>& dy, nn::Matrix<Scalar>& dx);

}  // namespace claimrag::verifier
