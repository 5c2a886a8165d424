#pragma once
// The config.json of a Hugging Face encoder folder: which architecture it is, the shapes of its
// tensors, and the options that change its forward pass. Defaults are those of the reference
// library's configuration classes for the same model_type.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/pretrained/activation.hpp"

namespace claimrag::pretrained {

/// The encoder families claimrag runs.
enum class Architecture { bert, roberta, deberta_v2 };

/// "bert", "roberta" or "deberta-v2".
std::string architecture_name(Architecture architecture);

/// The model_type values accepted, for messages ("bert, roberta, xlm-roberta, deberta-v2").
std::string supported_model_types();

/// Everything config.json says that claimrag uses.
struct ModelConfig {
  std::string file;                 ///< the config.json read, for messages
  std::string model_type;           ///< as written ("bert", "deberta-v2", ...)
  Architecture architecture = Architecture::bert;
  std::vector<std::string> architectures;  ///< e.g. {"BertForSequenceClassification"}; may be empty
  std::int64_t vocab_size = 0;
  std::int64_t hidden_size = 0;
  std::int64_t num_hidden_layers = 0;
  std::int64_t num_attention_heads = 0;
  std::int64_t intermediate_size = 0;
  Activation hidden_act = Activation::gelu;
  float layer_norm_eps = 1e-12F;
  std::int64_t max_position_embeddings = 512;
  std::int64_t type_vocab_size = 2;
  std::int64_t pad_token_id = 0;
  std::vector<std::string> labels;  ///< id2label in id order (empty when the config has none)

  // DeBERTa only (v1, v2 and v3 share Architecture::deberta_v2).
  bool deberta_v1 = false;          ///< model_type "deberta": one in_proj with q_bias and v_bias, pos_proj and pos_q_proj
  std::int64_t embedding_size = 0;  ///< 0: hidden_size
  bool relative_attention = false;
  std::int64_t max_relative_positions = -1;  ///< < 1: max_position_embeddings
  std::int64_t position_buckets = -1;        ///< > 0: log-bucketed relative positions
  bool attends_content_to_position = false;  ///< "c2p" in pos_att_type
  bool attends_position_to_content = false;  ///< "p2c" in pos_att_type
  bool share_att_key = false;
  bool norm_rel_ebd_layer_norm = false;      ///< "layer_norm" in norm_rel_ebd
  bool position_biased_input = true;
  std::int64_t pooler_hidden_size = 0;       ///< 0: hidden_size
  Activation pooler_hidden_act = Activation::gelu;

  /// The number of tokens one sequence may hold: max_position_embeddings, less the positions
  /// RoBERTa reserves below padding_idx + 1.
  [[nodiscard]] std::int64_t max_tokens() const;
  /// The span of relative positions DeBERTa attends over (position_buckets, else max_relative_positions).
  [[nodiscard]] std::int64_t attention_span() const;
};

/// Reads `folder`/config.json. DataError naming the file when it is missing, malformed, has an
/// unknown model_type (the message lists the supported ones), an unknown activation, or shapes
/// that do not fit together (hidden size not a multiple of the heads, say).
ModelConfig read_model_config(const std::filesystem::path& folder);

}  // namespace claimrag::pretrained
