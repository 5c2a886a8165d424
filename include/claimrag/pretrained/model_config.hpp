#pragma once
// The config.json of a Hugging Face checkpoint folder: which architecture it is, the shapes of its
// tensors, and the options that change its forward pass. Defaults are those of the reference
// library's configuration classes for the same model_type. T5's keys (d_model, num_layers,
// num_heads, d_ff, layer_norm_epsilon) are read into the same fields as the encoders' (hidden_size,
// num_hidden_layers, num_attention_heads, intermediate_size, layer_norm_eps), as T5Config's
// attribute_map does.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/pretrained/activation.hpp"

namespace claimrag::pretrained {

/// The families claimrag runs: three encoders, and T5 (v1.0, v1.1, Flan-T5) as an encoder-decoder.
enum class Architecture { bert, roberta, deberta_v2, t5 };

/// "bert", "roberta", "deberta-v2" or "t5".
std::string architecture_name(Architecture architecture);

/// The model_type values accepted, for messages ("bert, roberta, xlm-roberta, deberta-v2, ...").
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

  // T5 only. hidden_act is the feed-forward's activation (feed_forward_proj's last part; "gelu_new"
  // for "gated-gelu", as T5Config has it), max_position_embeddings is kT5MaxTokens (its positions
  // are relative and unbounded; n_positions is not read, as the reference's model does not).
  std::int64_t num_decoder_layers = 0;
  std::int64_t d_kv = 0;                     ///< per head: queries, keys and values are num_heads × d_kv wide
  std::int64_t relative_attention_num_buckets = 32;
  std::int64_t relative_attention_max_distance = 128;
  bool gated_feed_forward = false;           ///< feed_forward_proj "gated-*": wi_0 (activated) × wi_1, else wi
  bool tie_word_embeddings = true;           ///< lm_head is `shared`, and the decoder's output is scaled by d_model^-0.5
  std::int64_t decoder_start_token_id = 0;

  /// The number of tokens one sequence may hold: max_position_embeddings, less the positions
  /// RoBERTa reserves below padding_idx + 1; kRelativeOnlyMaxTokens for DeBERTa with relative
  /// attention and no absolute positions (position_biased_input false: every DeBERTa-v3).
  [[nodiscard]] std::int64_t max_tokens() const;
  /// The span of relative positions DeBERTa attends over (position_buckets, else max_relative_positions).
  [[nodiscard]] std::int64_t attention_span() const;
  /// T5's width of the attention projections: num_attention_heads × d_kv.
  [[nodiscard]] std::int64_t t5_inner_size() const { return num_attention_heads * d_kv; }
};

/// The longest sequence a T5 checkpoint, or a DeBERTa one without absolute positions, is run on:
/// their relative positions set no limit (the reference reads any length: MiniCheck's DeBERTa-v3
/// reads 2,048 tokens), so this bounds the attention scores' memory (tokens² floats per head).
inline constexpr std::int64_t kT5MaxTokens = 16384;
inline constexpr std::int64_t kRelativeOnlyMaxTokens = kT5MaxTokens;

/// Reads `folder`/config.json. DataError naming the file when it is missing, malformed, has an
/// unknown model_type (the message lists the supported ones), an unknown activation or
/// feed_forward_proj, or shapes that do not fit together (hidden size not a multiple of the heads,
/// T5 buckets too few for its log-spaced half).
ModelConfig read_model_config(const std::filesystem::path& folder);

}  // namespace claimrag::pretrained
