#pragma once
// The forward pass of T5 (T5ForConditionalGeneration: v1.0, v1.1, Flan-T5) as a classifier over
// label tokens: the encoder over a token sequence, then one decoder step from
// decoder_start_token_id, whose logits of the label tokens are the outputs (MiniCheck-Flan-T5
// reads tokens 3 and 209 this way). Written from the reference library's modeling_t5.py:
// pre-norm blocks with T5's RMS norm (no mean, no bias), attention without the 1/sqrt(d) scale,
// a learned bias per head and relative-position bucket (bidirectional in the encoder, layer 0's
// table shared by every layer), no biases anywhere, an (optionally gated) feed-forward, and a
// final norm per stack. Sequences run without padding; they may be stacked so that each linear
// layer runs once for all of them, and a sequence's outputs are the same bytes whatever it is
// stacked with and whatever the thread count.

#include <cstdint>
#include <string>
#include <vector>

#include "claimrag/nn/parameter.hpp"
#include "claimrag/pretrained/encoder.hpp"
#include "claimrag/pretrained/encoder_linear.hpp"
#include "claimrag/pretrained/model_config.hpp"
#include "claimrag/pretrained/packed_linear.hpp"
#include "claimrag/pretrained/precision.hpp"
#include "claimrag/pretrained/t5_weights.hpp"

namespace claimrag::pretrained {

/// The outputs of one sequence.
struct T5Outputs {
  std::vector<float> label_logits;  ///< one per label token, in label order
  /// When kept: the encoder's hidden states as the reference's output_hidden_states gives them:
  /// the embeddings, the input of every later block, then the final layer norm's output.
  std::vector<nn::Matrix<float>> encoder_states;
};

class T5Model {
 public:
  /// Packs the linear weights for `precision` (the label rows stay float32, as the other
  /// families' heads do). `label_tokens` are the rows `weights.label_rows` was taken for.
  T5Model(ModelConfig config, T5Weights weights, std::vector<std::int32_t> label_tokens, Precision precision = Precision::f32);

  /// Why `sequence` cannot be run (no tokens, more than kT5MaxTokens, an id outside the
  /// vocabulary), or "" when it can. Segment ids are ignored, as T5 has none.
  [[nodiscard]] std::string input_problem(const TokenSequence& sequence) const;

  /// The outputs of each of `sequences` (none with an input_problem(); InternalError otherwise),
  /// computed together on the calling thread: their tokens are stacked for every linear layer,
  /// attention runs per sequence.
  [[nodiscard]] std::vector<T5Outputs> run_stack(const std::vector<const TokenSequence*>& sequences, bool keep_states) const;

  [[nodiscard]] const ModelConfig& config() const { return config_; }
  [[nodiscard]] Precision precision() const { return precision_; }
  [[nodiscard]] const std::vector<std::int32_t>& label_tokens() const { return label_tokens_; }

 private:
  struct PackedBlock {
    nn::Matrix<float> self_attention_norm;
    EncoderLinear self_query_key_value;  ///< encoder: q, k, v; decoder: v alone (one step attends to itself alone)
    EncoderLinear self_output;
    nn::Matrix<float> cross_attention_norm;
    EncoderLinear cross_query;
    EncoderLinear cross_key_value;
    EncoderLinear cross_output;
    nn::Matrix<float> feed_forward_norm;
    EncoderLinear feed_forward_in;
    EncoderLinear feed_forward_out;
  };

  /// The encoder's output (final norm applied) of the stacked tokens [rows, d_model].
  [[nodiscard]] nn::Matrix<float> run_encoder(const std::vector<const TokenSequence*>& sequences,
                                              const std::vector<Eigen::Index>& first_row, bool keep_states,
                                              std::vector<T5Outputs>& outputs) const;
  /// The decoder's first-step output [sequences, d_model] (final norm applied) over `encoded`.
  [[nodiscard]] nn::Matrix<float> run_decoder(const nn::Matrix<float>& encoded, const std::vector<Eigen::Index>& first_row) const;
  /// One sequence's encoder self-attention: `projected` [tokens, 3 × inner] holds its queries,
  /// keys and values side by side; writes `context` [tokens, inner].
  void self_attend(const ConstRowBlock& projected, RowBlock context) const;
  /// The feed-forward sub-layer of `block` (of either stack) added to `hidden` [rows, d_model].
  void add_feed_forward(const PackedBlock& block, nn::Matrix<float>& hidden) const;

  ModelConfig config_;
  std::vector<std::int32_t> label_tokens_;
  Precision precision_;
  nn::Matrix<float> shared_;
  nn::Matrix<float> encoder_position_bias_;
  nn::Matrix<float> encoder_final_norm_;
  nn::Matrix<float> decoder_final_norm_;
  std::vector<PackedBlock> encoder_blocks_;
  std::vector<PackedBlock> decoder_blocks_;
  PackedLinear label_rows_;
};

}  // namespace claimrag::pretrained
