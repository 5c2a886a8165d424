#pragma once
// The weights of a T5 checkpoint (T5ForConditionalGeneration: v1.0, v1.1, Flan-T5), read by the
// names the reference library saves: `shared.weight` (encoder.embed_tokens.weight and
// decoder.embed_tokens.weight, when stored, must be the same table), the encoder's and decoder's
// blocks, their final layer norms, and `lm_head.weight` (absent, or equal to `shared`, when
// tie_word_embeddings). No T5 layer has a bias; linear weights keep the [out, in] layout.

#include <cstdint>
#include <vector>

#include "claimrag/nn/parameter.hpp"
#include "claimrag/pretrained/checkpoint_tensors.hpp"
#include "claimrag/pretrained/encoder_weights.hpp"
#include "claimrag/pretrained/model_config.hpp"

namespace claimrag::pretrained {

/// One block of the encoder (self-attention, feed-forward) or of the decoder (self-attention,
/// cross-attention, feed-forward), each sub-layer behind its own RMS norm weight (1 × d_model).
struct T5BlockWeights {
  nn::Matrix<float> self_attention_norm;
  LinearWeights self_query_key_value;  ///< q, k, v stacked: [3 × inner, d_model]
  LinearWeights self_output;           ///< o: [d_model, inner]
  nn::Matrix<float> cross_attention_norm;  ///< decoder only, as the three below
  LinearWeights cross_query;               ///< EncDecAttention.q: [inner, d_model], on the decoder's state
  LinearWeights cross_key_value;           ///< EncDecAttention.k, v stacked: [2 × inner, d_model], on the encoder's output
  LinearWeights cross_output;              ///< EncDecAttention.o: [d_model, inner]
  nn::Matrix<float> feed_forward_norm;
  LinearWeights feed_forward_in;   ///< gated: wi_0 then wi_1 stacked, [2 × d_ff, d_model]; else wi, [d_ff, d_model]
  LinearWeights feed_forward_out;  ///< wo: [d_model, d_ff]
};

struct T5Weights {
  nn::Matrix<float> shared;  ///< [vocab, d_model]: the token embeddings of both stacks
  std::vector<T5BlockWeights> encoder_blocks;
  std::vector<T5BlockWeights> decoder_blocks;
  nn::Matrix<float> encoder_position_bias;  ///< encoder.block.0's relative_attention_bias: [buckets, heads]
  nn::Matrix<float> decoder_position_bias;  ///< decoder.block.0's, checked but unused: one decoder step attends to itself alone
  nn::Matrix<float> encoder_final_norm;     ///< 1 × d_model
  nn::Matrix<float> decoder_final_norm;
  /// The output-embedding rows of the label tokens, in label order: [labels, d_model] (lm_head's
  /// rows, or shared's when tied). The rest of lm_head is not kept: only these logits are output.
  nn::Matrix<float> label_rows;
};

/// Takes every tensor of a T5ForConditionalGeneration for `config` from `tensors`, keeping the
/// lm_head rows of `label_tokens` (each in [0, vocab_size)). DataError naming the file and the
/// tensor for a wrong shape, or for an embedding or lm_head copy that differs from `shared`;
/// missing tensors are left to CheckpointTensors::require_no_missing(). The decoder's cross-attention
/// position table that old checkpoints store (and the reference ignores) is ignored.
T5Weights load_t5_weights(const ModelConfig& config, CheckpointTensors& tensors, const std::vector<std::int32_t>& label_tokens);

}  // namespace claimrag::pretrained
