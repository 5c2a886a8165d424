#include "claimrag/pretrained/t5_weights.hpp"

#include <string>
#include <utility>

#include "claimrag/error.hpp"

namespace claimrag::pretrained {
namespace {

// Rows of several [rows, in] weights stacked in order into one, so that one product computes them
// all; each part is released as it is copied.
LinearWeights stack_rows(std::vector<nn::Matrix<float>> parts) {
  Eigen::Index rows = 0;
  for (const auto& part : parts) rows += part.rows();
  LinearWeights stacked;
  stacked.weight.resize(rows, parts.front().cols());
  Eigen::Index row = 0;
  for (auto& part : parts) {
    stacked.weight.middleRows(row, part.rows()) = part;
    row += part.rows();
    part = nn::Matrix<float>();
  }
  return stacked;
}

LinearWeights take_t5_linear(CheckpointTensors& tensors, const std::string& name, std::int64_t out, std::int64_t in) {
  return take_linear(tensors, name, out, in, false);
}

// layer.N.SelfAttention or layer.N.EncDecAttention: q, k, v [inner, d_model], o [d_model, inner].
void take_attention(const ModelConfig& config, CheckpointTensors& tensors, const std::string& name, bool cross,
                    T5BlockWeights& block) {
  const std::int64_t model = config.hidden_size;
  const std::int64_t inner = config.t5_inner_size();
  auto part = [&](const char* projection) { return tensors.take(name + projection + ".weight", inner, model); };
  if (cross) {
    block.cross_query = LinearWeights{part(".q"), {}};
    block.cross_key_value = stack_rows({part(".k"), part(".v")});
    block.cross_output = take_t5_linear(tensors, name + ".o", model, inner);
  } else {
    block.self_query_key_value = stack_rows({part(".q"), part(".k"), part(".v")});
    block.self_output = take_t5_linear(tensors, name + ".o", model, inner);
  }
}

void take_feed_forward(const ModelConfig& config, CheckpointTensors& tensors, const std::string& name, T5BlockWeights& block) {
  const std::int64_t model = config.hidden_size;
  const std::int64_t inner = config.intermediate_size;
  if (config.gated_feed_forward) {
    block.feed_forward_in = stack_rows({tensors.take(name + ".wi_0.weight", inner, model), tensors.take(name + ".wi_1.weight", inner, model)});
  } else {
    block.feed_forward_in = take_t5_linear(tensors, name + ".wi", inner, model);
  }
  block.feed_forward_out = take_t5_linear(tensors, name + ".wo", model, inner);
}

// encoder.block.i: layer.0 self-attention, layer.1 feed-forward; decoder.block.i: layer.0
// self-attention, layer.1 cross-attention, layer.2 feed-forward. Each layer.N holds its layer_norm.
T5BlockWeights take_block(const ModelConfig& config, CheckpointTensors& tensors, const std::string& name, bool decoder) {
  const std::int64_t model = config.hidden_size;
  const auto norm = [&](int layer) { return tensors.take_vector(name + ".layer." + std::to_string(layer) + ".layer_norm.weight", model); };
  T5BlockWeights block;
  block.self_attention_norm = norm(0);
  take_attention(config, tensors, name + ".layer.0.SelfAttention", false, block);
  if (decoder) {
    block.cross_attention_norm = norm(1);
    take_attention(config, tensors, name + ".layer.1.EncDecAttention", true, block);
  }
  const int feed_forward = decoder ? 2 : 1;
  block.feed_forward_norm = norm(feed_forward);
  take_feed_forward(config, tensors, name + ".layer." + std::to_string(feed_forward) + ".DenseReluDense", block);
  return block;
}

// A stored copy of a tied table (the stacks' embed_tokens, a tied lm_head) must hold the same
// values: the reference ties them into one parameter, so two different tables have no one meaning.
void require_same_as(CheckpointTensors& tensors, const std::string& name, const nn::Matrix<float>& shared) {
  if (!tensors.contains(name)) return;
  const nn::Matrix<float> copy = tensors.take(name, shared.rows(), shared.cols());
  if (copy != shared) {
    throw DataError(tensors.file_of(name), "tensor '" + name +
                                               "' differs from 'shared.weight', which it is tied to (one table of token embeddings)");
  }
}

}  // namespace

T5Weights load_t5_weights(const ModelConfig& config, CheckpointTensors& tensors, const std::vector<std::int32_t>& label_tokens) {
  const std::int64_t model = config.hidden_size;
  T5Weights weights;
  // The reference saves the shared table once, as shared.weight; a checkpoint of another writer
  // may hold only one stack's copy.
  std::string shared_name = "shared.weight";
  for (const char* name : {"shared.weight", "encoder.embed_tokens.weight", "decoder.embed_tokens.weight"}) {
    if (tensors.contains(name)) {
      shared_name = name;
      break;
    }
  }
  weights.shared = tensors.take(shared_name, config.vocab_size, model);
  for (const char* name : {"shared.weight", "encoder.embed_tokens.weight", "decoder.embed_tokens.weight"}) {
    if (name != shared_name) require_same_as(tensors, name, weights.shared);
  }
  const std::int64_t buckets = config.relative_attention_num_buckets;
  const std::int64_t heads = config.num_attention_heads;
  weights.encoder_position_bias = tensors.take("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", buckets, heads);
  weights.decoder_position_bias = tensors.take("decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", buckets, heads);
  // Stored by old versions of the reference, which drops it (_keys_to_ignore_on_load_unexpected).
  tensors.ignore("decoder.block.0.layer.1.EncDecAttention.relative_attention_bias.weight");
  for (std::int64_t i = 0; i < config.num_hidden_layers; ++i) {
    weights.encoder_blocks.push_back(take_block(config, tensors, "encoder.block." + std::to_string(i), false));
  }
  for (std::int64_t i = 0; i < config.num_decoder_layers; ++i) {
    weights.decoder_blocks.push_back(take_block(config, tensors, "decoder.block." + std::to_string(i), true));
  }
  weights.encoder_final_norm = tensors.take_vector("encoder.final_layer_norm.weight", model);
  weights.decoder_final_norm = tensors.take_vector("decoder.final_layer_norm.weight", model);
  nn::Matrix<float> lm_head;
  if (config.tie_word_embeddings) {
    require_same_as(tensors, "lm_head.weight", weights.shared);
  } else {
    lm_head = tensors.take("lm_head.weight", config.vocab_size, model);
  }
  const nn::Matrix<float>& output_embeddings = config.tie_word_embeddings ? weights.shared : lm_head;
  weights.label_rows.resize(static_cast<Eigen::Index>(label_tokens.size()), model);
  for (std::size_t k = 0; k < label_tokens.size(); ++k) {
    weights.label_rows.row(static_cast<Eigen::Index>(k)) = output_embeddings.row(label_tokens[k]);
  }
  return weights;
}

}  // namespace claimrag::pretrained
