#pragma once
// The forward pass of a BERT, RoBERTa or DeBERTa-v2/v3 encoder over token sequences, without
// padding: every position is a real token. Sequences may be stacked so that each linear layer runs
// once for all of them (packed_linear.hpp); a stack runs on the calling thread, and a sequence's
// output is the same bytes whatever it is stacked with and whatever the thread count.

#include <cstdint>
#include <string>
#include <vector>

#include "claimrag/nn/parameter.hpp"
#include "claimrag/pretrained/dense_ops.hpp"
#include "claimrag/pretrained/encoder_weights.hpp"
#include "claimrag/pretrained/model_config.hpp"
#include "claimrag/pretrained/encoder_linear.hpp"
#include "claimrag/pretrained/precision.hpp"

namespace claimrag::pretrained {

/// One input: token ids with their segment ids (same length; empty segment ids read as zeros).
struct TokenSequence {
  std::vector<std::int32_t> input_ids;
  std::vector<std::int32_t> token_type_ids;
};

/// The hidden states of one sequence.
struct EncoderStates {
  nn::Matrix<float> last;                 ///< [tokens, hidden]: the last layer's output
  std::vector<nn::Matrix<float>> layers;  ///< when kept: the embeddings' output, then each layer's (as output_hidden_states)
};

class Encoder {
 public:
  /// Packs the layers' weights for `precision` (the unpacked copies are released).
  Encoder(ModelConfig config, EncoderWeights weights, Precision precision = Precision::f32);

  /// Why `sequence` cannot be encoded (empty, longer than max_tokens(), an id outside the
  /// vocabulary, a segment id outside type_vocab_size, lengths that differ), or "" when it can.
  /// Segment ids are not checked where they are ignored (DeBERTa with type_vocab_size 0).
  [[nodiscard]] std::string input_problem(const TokenSequence& sequence) const;

  /// The hidden states of `sequence`, which must have no input_problem() (InternalError
  /// otherwise). Runs on the calling thread.
  [[nodiscard]] EncoderStates encode(const TokenSequence& sequence, bool keep_layers) const;

  /// The hidden states of each of `sequences`, computed together: their tokens are stacked into
  /// one matrix for every linear layer, so each packed weight is read once per layer for the
  /// stack, and attention runs per sequence. Each sequence's states are the bytes encode() gives
  /// it alone. Runs on the calling thread.
  [[nodiscard]] std::vector<EncoderStates> encode_stack(const std::vector<const TokenSequence*>& sequences, bool keep_layers) const;

  [[nodiscard]] const ModelConfig& config() const { return config_; }
  [[nodiscard]] Precision precision() const { return precision_; }

 private:
  /// DeBERTa with type_vocab_size 0 has no segment table and ignores whatever segment ids it is given.
  [[nodiscard]] bool ignores_segment_ids() const;
  /// The absolute position of each token: 0, 1, ... (BERT, DeBERTa); RoBERTa's padding_idx + the
  /// count of non-pad tokens so far, and padding_idx for a pad token.
  [[nodiscard]] std::vector<std::int64_t> position_ids(const std::vector<std::int32_t>& input_ids) const;
  [[nodiscard]] nn::Matrix<float> embed(const TokenSequence& sequence) const;
  /// One sequence's attention: `projected` [tokens, 3 × hidden] holds its queries, keys and
  /// values side by side; writes `context` [tokens, hidden].
  void attend(const ConstRowBlock& projected, std::size_t layer, RowBlock context) const;

  /// A layer's linear weights, packed at load (their unpacked copies in weights_ are released).
  struct PackedEncoderLayer {
    EncoderLinear query_key_value;
    EncoderLinear attention_output;
    EncoderLinear intermediate;
    EncoderLinear output;
  };

  ModelConfig config_;
  EncoderWeights weights_;
  Precision precision_;
  std::vector<PackedEncoderLayer> packed_layers_;
  std::vector<std::int64_t> relative_positions_;  ///< DeBERTa: bucket of distance d at d + max_tokens - 1
  std::vector<nn::Matrix<float>> position_keys_;     ///< DeBERTa, per layer: relative embeddings through the key projection
  std::vector<nn::Matrix<float>> position_queries_;  ///< DeBERTa, per layer: through the query projection
};

}  // namespace claimrag::pretrained
