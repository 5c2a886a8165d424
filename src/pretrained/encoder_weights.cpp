#include "claimrag/pretrained/encoder_weights.hpp"

#include <utility>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/dense_ops.hpp"

namespace claimrag::pretrained {
namespace {

// Checkpoints converted from TensorFlow name LayerNorm's parameters gamma and beta.
LayerNormWeights take_layer_norm(CheckpointTensors& tensors, const std::string& name, std::int64_t size, float eps) {
  const bool old_names = !tensors.contains(name + ".weight") && tensors.contains(name + ".gamma");
  LayerNormWeights norm;
  norm.gain = tensors.take_vector(name + (old_names ? ".gamma" : ".weight"), size);
  norm.bias = tensors.take_vector(name + (old_names ? ".beta" : ".bias"), size);
  norm.eps = eps;
  return norm;
}

// One [3 × hidden, hidden] projection from the three: each sequence then reads the stacked
// weights in one product instead of three, and the parts are released as they are copied.
LinearWeights stack_query_key_value(LinearWeights query, LinearWeights key, LinearWeights value) {
  const Eigen::Index hidden = query.weight.rows();
  LinearWeights stacked;
  stacked.weight.resize(3 * hidden, query.weight.cols());
  stacked.bias.setZero(1, 3 * hidden);
  Eigen::Index row = 0;
  for (LinearWeights* part : {&query, &key, &value}) {
    stacked.weight.middleRows(row, hidden) = part->weight;
    if (part->bias.size() != 0) stacked.bias.middleCols(row, hidden) = part->bias;
    *part = LinearWeights{};
    row += hidden;
  }
  return stacked;
}

// DeBERTa v1's attention: one projection in_proj [3 × hidden, hidden] without bias, whose rows
// hold, head after head, that head's query, key and value rows; q_bias and v_bias are added to
// the queries and values; pos_proj (no bias) projects the relative embeddings for c2p, pos_q_proj
// for p2c. Split here into the same separate projections the v2 layout has.
void take_v1_attention(const ModelConfig& config, CheckpointTensors& tensors, const std::string& self,
                       EncoderLayerWeights& layer) {
  const std::int64_t hidden = config.hidden_size;
  const std::int64_t head_size = hidden / config.num_attention_heads;
  const nn::Matrix<float> in_proj = tensors.take(self + "in_proj.weight", 3 * hidden, hidden);
  LinearWeights query;
  LinearWeights key;
  LinearWeights value;
  for (LinearWeights* part : {&query, &key, &value}) part->weight.resize(hidden, hidden);
  for (std::int64_t head = 0; head < config.num_attention_heads; ++head) {
    const std::int64_t rows = 3 * head * head_size;
    query.weight.middleRows(head * head_size, head_size) = in_proj.middleRows(rows, head_size);
    key.weight.middleRows(head * head_size, head_size) = in_proj.middleRows(rows + head_size, head_size);
    value.weight.middleRows(head * head_size, head_size) = in_proj.middleRows(rows + 2 * head_size, head_size);
  }
  query.bias = tensors.take_vector(self + "q_bias", hidden);
  value.bias = tensors.take_vector(self + "v_bias", hidden);
  layer.query_key_value = stack_query_key_value(std::move(query), std::move(key), std::move(value));
  if (config.relative_attention && config.attends_content_to_position) {
    layer.position_key = take_linear(tensors, self + "pos_proj", hidden, hidden, false);
  }
  if (config.relative_attention && config.attends_position_to_content) {
    layer.position_query = take_linear(tensors, self + "pos_q_proj", hidden, hidden);
  }
}

EncoderLayerWeights take_layer(const ModelConfig& config, CheckpointTensors& tensors, const std::string& name) {
  const std::int64_t hidden = config.hidden_size;
  const bool deberta = config.architecture == Architecture::deberta_v2;
  const std::string self = name + ".attention.self.";
  EncoderLayerWeights layer;
  if (config.deberta_v1) {
    take_v1_attention(config, tensors, self, layer);
  } else {
    LinearWeights query = take_linear(tensors, self + (deberta ? "query_proj" : "query"), hidden, hidden);
    LinearWeights key = take_linear(tensors, self + (deberta ? "key_proj" : "key"), hidden, hidden);
    LinearWeights value = take_linear(tensors, self + (deberta ? "value_proj" : "value"), hidden, hidden);
    layer.query_key_value = stack_query_key_value(std::move(query), std::move(key), std::move(value));
  }
  if (deberta && !config.deberta_v1 && config.relative_attention && !config.share_att_key) {
    if (config.attends_content_to_position) layer.position_key = take_linear(tensors, self + "pos_key_proj", hidden, hidden);
    if (config.attends_position_to_content) layer.position_query = take_linear(tensors, self + "pos_query_proj", hidden, hidden);
  }
  layer.attention_output = take_linear(tensors, name + ".attention.output.dense", hidden, hidden);
  layer.attention_norm = take_layer_norm(tensors, name + ".attention.output.LayerNorm", hidden, config.layer_norm_eps);
  layer.intermediate = take_linear(tensors, name + ".intermediate.dense", config.intermediate_size, hidden);
  layer.output = take_linear(tensors, name + ".output.dense", hidden, config.intermediate_size);
  layer.output_norm = take_layer_norm(tensors, name + ".output.LayerNorm", hidden, config.layer_norm_eps);
  return layer;
}

}  // namespace

std::string base_model_name(Architecture architecture) {
  switch (architecture) {
    case Architecture::bert: return "bert";
    case Architecture::roberta: return "roberta";
    case Architecture::deberta_v2: return "deberta";
    case Architecture::t5: return "";  // T5ForConditionalGeneration's tensors carry no base-model prefix
  }
  return "";
}

LinearWeights take_linear(CheckpointTensors& tensors, const std::string& name, std::int64_t out, std::int64_t in,
                          bool with_bias) {
  LinearWeights linear;
  linear.weight = tensors.take(name + ".weight", out, in);
  if (with_bias) linear.bias = tensors.take_vector(name + ".bias", out);
  return linear;
}

std::string base_model_prefix(const ModelConfig& config, const CheckpointTensors& tensors) {
  const std::string name = base_model_name(config.architecture);
  return tensors.any_name_starts_with(name) ? name + "." : "";
}

EncoderWeights load_encoder_weights(const ModelConfig& config, CheckpointTensors& tensors, const std::string& prefix) {
  const bool deberta = config.architecture == Architecture::deberta_v2;
  const std::int64_t embedding = deberta ? config.embedding_size : config.hidden_size;
  const std::string embeddings = prefix + "embeddings.";
  EncoderWeights weights;
  weights.word_embeddings = tensors.take_table(embeddings + "word_embeddings.weight", config.vocab_size, embedding);
  // Buffers of the reference's embeddings, stored by older versions of it.
  tensors.ignore(embeddings + "position_ids");
  if (!deberta) tensors.ignore(embeddings + "token_type_ids");
  if (!deberta || config.position_biased_input) {
    weights.position_embeddings =
        tensors.take(embeddings + "position_embeddings.weight", config.max_position_embeddings, embedding);
  } else {
    // The reference's DeBERTa has no such table then, and drops it silently when stored
    // (its load-time pattern "position_embeddings").
    tensors.ignore(embeddings + "position_embeddings.weight");
  }
  if (config.type_vocab_size > 0) {
    weights.token_type_embeddings =
        tensors.take(embeddings + "token_type_embeddings.weight", config.type_vocab_size, embedding);
  }
  if (deberta && embedding != config.hidden_size) {
    weights.embedding_projection = take_linear(tensors, embeddings + "embed_proj", config.hidden_size, embedding, false);
  }
  weights.embedding_norm = take_layer_norm(tensors, embeddings + "LayerNorm", config.hidden_size, config.layer_norm_eps);
  for (std::int64_t i = 0; i < config.num_hidden_layers; ++i) {
    weights.layers.push_back(take_layer(config, tensors, prefix + "encoder.layer." + std::to_string(i)));
  }
  if (deberta && config.relative_attention) {
    weights.relative_embeddings =
        tensors.take(prefix + "encoder.rel_embeddings.weight", 2 * config.attention_span(), config.hidden_size);
    if (config.norm_rel_ebd_layer_norm) {
      const auto norm = take_layer_norm(tensors, prefix + "encoder.LayerNorm", config.hidden_size, config.layer_norm_eps);
      layer_norm_in_place(weights.relative_embeddings, norm);
    }
  }
  return weights;
}

}  // namespace claimrag::pretrained
