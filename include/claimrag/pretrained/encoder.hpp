#pragma once
// The forward pass of a BERT, RoBERTa or DeBERTa-v2/v3 encoder over one token sequence, without
// padding: every position is a real token. One sequence runs on the calling thread, so a batch
// parallelised across sequences gives the same bytes for any thread count, and a sequence's
// output does not depend on the other sequences of its batch.

#include <cstdint>
#include <string>
#include <vector>

#include "claimrag/nn/parameter.hpp"
#include "claimrag/pretrained/encoder_weights.hpp"
#include "claimrag/pretrained/model_config.hpp"

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
  Encoder(ModelConfig config, EncoderWeights weights);

  /// Why `sequence` cannot be encoded (empty, longer than max_tokens(), an id outside the
  /// vocabulary, a segment id outside type_vocab_size, lengths that differ), or "" when it can.
  /// Segment ids are not checked where they are ignored (DeBERTa with type_vocab_size 0).
  [[nodiscard]] std::string input_problem(const TokenSequence& sequence) const;

  /// The hidden states of `sequence`, which must have no input_problem() (InternalError
  /// otherwise). Runs on the calling thread.
  [[nodiscard]] EncoderStates encode(const TokenSequence& sequence, bool keep_layers) const;

  [[nodiscard]] const ModelConfig& config() const { return config_; }

 private:
  /// DeBERTa with type_vocab_size 0 has no segment table and ignores whatever segment ids it is given.
  [[nodiscard]] bool ignores_segment_ids() const;
  /// The absolute position of each token: 0, 1, ... (BERT, DeBERTa); RoBERTa's padding_idx + the
  /// count of non-pad tokens so far, and padding_idx for a pad token.
  [[nodiscard]] std::vector<std::int64_t> position_ids(const std::vector<std::int32_t>& input_ids) const;
  [[nodiscard]] nn::Matrix<float> embed(const TokenSequence& sequence) const;
  void attend(const nn::Matrix<float>& hidden, std::size_t layer, nn::Matrix<float>& context) const;

  ModelConfig config_;
  EncoderWeights weights_;
  std::vector<std::int64_t> relative_positions_;  ///< DeBERTa: bucket of distance d at d + max_tokens - 1
  std::vector<nn::Matrix<float>> position_keys_;     ///< DeBERTa, per layer: relative embeddings through the key projection
  std::vector<nn::Matrix<float>> position_queries_;  ///< DeBERTa, per layer: through the query projection
};

}  // namespace claimrag::pretrained
