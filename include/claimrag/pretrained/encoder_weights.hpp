#pragma once
// The weights of one BERT, RoBERTa or DeBERTa-v2/v3 encoder, read by name and shape from a
// checkpoint. Linear weights keep Hugging Face's [out, in] layout (y = x Wᵀ + b).

#include <cstdint>
#include <string>
#include <vector>

#include "claimrag/nn/parameter.hpp"
#include "claimrag/pretrained/checkpoint_tensors.hpp"
#include "claimrag/pretrained/model_config.hpp"
#include "claimrag/pretrained/weight_table.hpp"

namespace claimrag::pretrained {

/// y = x Wᵀ + b: weight [out, in], bias 1 × out (empty for a layer without bias).
struct LinearWeights {
  nn::Matrix<float> weight;
  nn::Matrix<float> bias;
  [[nodiscard]] bool empty() const { return weight.size() == 0; }
};

/// Normalises each row to zero mean and unit variance, then scales by gain and adds bias (1 × n).
struct LayerNormWeights {
  nn::Matrix<float> gain;
  nn::Matrix<float> bias;
  float eps = 1e-12F;
};

/// One transformer layer (post-norm, as all three families are).
struct EncoderLayerWeights {
  /// The query, key and value projections stacked into one [3 × hidden, hidden] (rows: queries,
  /// then keys, then values; a missing bias reads as zeros), so one product gives all three.
  LinearWeights query_key_value;
  LinearWeights attention_output;
  LayerNormWeights attention_norm;
  LinearWeights intermediate;
  LinearWeights output;
  LayerNormWeights output_norm;
  LinearWeights position_key;    ///< DeBERTa's pos_key_proj (empty when shared or without c2p)
  LinearWeights position_query;  ///< DeBERTa's pos_query_proj (empty when shared or without p2c)
};

struct EncoderWeights {
  WeightTable word_embeddings;              ///< [vocab, embedding size], read in place when stored as float32
  nn::Matrix<float> position_embeddings;    ///< [max positions, embedding size]; empty without absolute positions
  nn::Matrix<float> token_type_embeddings;  ///< [type vocab, embedding size]; empty when type_vocab_size is 0
  LinearWeights embedding_projection;       ///< DeBERTa's embed_proj when embedding_size != hidden_size
  LayerNormWeights embedding_norm;
  std::vector<EncoderLayerWeights> layers;
  nn::Matrix<float> relative_embeddings;    ///< DeBERTa: [2 × span, hidden], already layer-normed when norm_rel_ebd says so
};

/// The reference library's base_model_prefix of a family: "bert", "roberta" or "deberta".
std::string base_model_name(Architecture architecture);

/// The prefix under which `tensors` store the base model ("bert.", "roberta.", "deberta."), or ""
/// for a bare model. The reference library's rule: the checkpoint has the prefix when any of its
/// tensors' names starts with the family's base-model name.
std::string base_model_prefix(const ModelConfig& config, const CheckpointTensors& tensors);

/// Takes the encoder's tensors for `config` from `tensors` (under `prefix`). DataError naming
/// the file and the tensor for a wrong shape; missing tensors are left to
/// CheckpointTensors::require_no_missing(). Buffers the reference library keeps beside the
/// weights (position_ids, token_type_ids) are accounted for.
EncoderWeights load_encoder_weights(const ModelConfig& config, CheckpointTensors& tensors, const std::string& prefix);

/// Takes `name`.weight [out, in] and, when `with_bias`, `name`.bias [out].
LinearWeights take_linear(CheckpointTensors& tensors, const std::string& name, std::int64_t out, std::int64_t in,
                          bool with_bias = true);

}  // namespace claimrag::pretrained
