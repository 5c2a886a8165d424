#include "claimrag/pretrained/t5_model.hpp"

#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/activation.hpp"
#include "claimrag/pretrained/dense_ops.hpp"
#include "claimrag/pretrained/relative_position.hpp"

namespace claimrag::pretrained {
namespace {

// T5LayerNorm: each row times the reciprocal root of its mean square (no mean subtracted, no
// bias), then times the weight, in that order. The reference computes the mean square in float32;
// it is summed here in double and rounded to float (the two agree far below the tolerance).
void rms_norm(const nn::Matrix<float>& x, const nn::Matrix<float>& weight, float eps, nn::Matrix<float>& out) {
  out.resize(x.rows(), x.cols());
  const Eigen::Index size = x.cols();
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    double squares = 0.0;
    for (Eigen::Index c = 0; c < size; ++c) squares += static_cast<double>(x(r, c)) * x(r, c);
    const auto variance = static_cast<float>(squares / static_cast<double>(size));
    const float inverse = 1.0F / std::sqrt(variance + eps);
    for (Eigen::Index c = 0; c < size; ++c) out(r, c) = weight(0, c) * (x(r, c) * inverse);
  }
}

// A layer the decoder or encoder lacks (an encoder block's cross-attention) packs to nothing.
EncoderLinear pack_t5_linear(LinearWeights& layer, Precision precision) {
  EncoderLinear packed(layer, layer.empty() ? Precision::f32 : precision);
  layer = LinearWeights{};
  return packed;
}

}  // namespace

T5Model::T5Model(ModelConfig config, T5Weights weights, std::vector<std::int32_t> label_tokens, Precision precision)
    : config_(std::move(config)),
      label_tokens_(std::move(label_tokens)),
      precision_(precision),
      shared_(std::move(weights.shared)),
      encoder_position_bias_(std::move(weights.encoder_position_bias)),
      encoder_final_norm_(std::move(weights.encoder_final_norm)),
      decoder_final_norm_(std::move(weights.decoder_final_norm)),
      label_rows_(LinearWeights{std::move(weights.label_rows), {}}) {
  const Eigen::Index inner = config_.t5_inner_size();
  const auto pack_blocks = [&](std::vector<T5BlockWeights>& blocks, bool decoder, std::vector<PackedBlock>& packed) {
    for (auto& block : blocks) {
      if (decoder) {
        // One decoder step attends from its one token to itself alone: the softmax of a single
        // score is exactly 1, so the context is the value, whatever the query, the key and the
        // position bias (distance 0). Only the value rows of q, k, v are kept.
        block.self_query_key_value = LinearWeights{block.self_query_key_value.weight.middleRows(2 * inner, inner), {}};
      }
      packed.push_back(PackedBlock{std::move(block.self_attention_norm), pack_t5_linear(block.self_query_key_value, precision_),
                                   pack_t5_linear(block.self_output, precision_), std::move(block.cross_attention_norm),
                                   pack_t5_linear(block.cross_query, precision_), pack_t5_linear(block.cross_key_value, precision_),
                                   pack_t5_linear(block.cross_output, precision_), std::move(block.feed_forward_norm),
                                   pack_t5_linear(block.feed_forward_in, precision_), pack_t5_linear(block.feed_forward_out, precision_)});
    }
    blocks.clear();
  };
  pack_blocks(weights.encoder_blocks, false, encoder_blocks_);
  pack_blocks(weights.decoder_blocks, true, decoder_blocks_);
}

std::string T5Model::input_problem(const TokenSequence& sequence) const {
  const auto length = static_cast<std::int64_t>(sequence.input_ids.size());
  if (length == 0) return "no tokens";
  if (length > config_.max_tokens()) {
    return std::to_string(length) + " tokens, more than the " + std::to_string(config_.max_tokens()) + " claimrag runs T5 on";
  }
  for (const auto id : sequence.input_ids) {
    if (id < 0 || id >= config_.vocab_size) {
      return "token id " + std::to_string(id) + " outside the vocabulary of " + std::to_string(config_.vocab_size);
    }
  }
  return "";
}

void T5Model::self_attend(const ConstRowBlock& projected, RowBlock context) const {
  const Eigen::Index length = projected.rows();
  const Eigen::Index head_size = config_.d_kv;
  const Eigen::Index inner = config_.t5_inner_size();
  // The bucket of each distance key − query in [-(length - 1), length - 1], at distance + length - 1.
  std::vector<std::int64_t> bucket_of(static_cast<std::size_t>(2 * length - 1));
  for (Eigen::Index d = -(length - 1); d <= length - 1; ++d) {
    bucket_of[static_cast<std::size_t>(d + length - 1)] =
        t5_relative_bucket(d, true, config_.relative_attention_num_buckets, config_.relative_attention_max_distance);
  }
  nn::Matrix<float> scores(length, length);
  std::vector<float> bias_of(bucket_of.size());
  for (Eigen::Index head = 0; head < config_.num_attention_heads; ++head) {
    const auto queries = projected.middleCols(head * head_size, head_size);
    const auto keys = projected.middleCols(inner + head * head_size, head_size);
    const auto values = projected.middleCols(2 * inner + head * head_size, head_size);
    multiply_by_transpose(queries, keys, scores);  // T5 does not scale the scores by 1/sqrt(d_kv)
    for (std::size_t k = 0; k < bucket_of.size(); ++k) bias_of[k] = encoder_position_bias_(bucket_of[k], head);
    for (Eigen::Index i = 0; i < length; ++i) {
      const float* bias = bias_of.data() + (length - 1 - i);  // bias of key j at bias[j]
      for (Eigen::Index j = 0; j < length; ++j) scores(i, j) += bias[j];
    }
    softmax_rows_in_place(scores);
    multiply(scores, values, context.middleCols(head * head_size, head_size));
  }
}

void T5Model::add_feed_forward(const PackedBlock& block, nn::Matrix<float>& hidden) const {
  nn::Matrix<float> normed;
  rms_norm(hidden, block.feed_forward_norm, config_.layer_norm_eps, normed);
  nn::Matrix<float> inner;
  block.feed_forward_in.apply(normed, inner);
  nn::Matrix<float> activated;
  if (config_.gated_feed_forward) {
    // act(wi_0 x) × wi_1 x: the two halves of the one stacked product.
    const Eigen::Index size = config_.intermediate_size;
    activated = inner.leftCols(size);
    apply_activation(config_.hidden_act, activated);
    activated.array() *= inner.rightCols(size).array();
  } else {
    apply_activation(config_.hidden_act, inner);
    activated.swap(inner);
  }
  nn::Matrix<float> output;
  block.feed_forward_out.apply(activated, output);
  hidden += output;
}

nn::Matrix<float> T5Model::run_encoder(const std::vector<const TokenSequence*>& sequences, const std::vector<Eigen::Index>& first_row,
                                       bool keep_states, std::vector<T5Outputs>& outputs) const {
  const auto keep = [&](const nn::Matrix<float>& stacked) {
    if (!keep_states) return;
    for (std::size_t i = 0; i < sequences.size(); ++i) {
      outputs[i].encoder_states.emplace_back(stacked.middleRows(first_row[i], first_row[i + 1] - first_row[i]));
    }
  };
  // The shared embeddings, unscaled.
  nn::Matrix<float> hidden(first_row.back(), config_.hidden_size);
  Eigen::Index row = 0;
  for (const TokenSequence* sequence : sequences) {
    for (const auto id : sequence->input_ids) hidden.row(row++) = shared_.row(id);
  }
  nn::Matrix<float> normed;
  nn::Matrix<float> projected;
  nn::Matrix<float> context(hidden.rows(), config_.t5_inner_size());
  nn::Matrix<float> attended;
  for (const PackedBlock& block : encoder_blocks_) {
    keep(hidden);
    rms_norm(hidden, block.self_attention_norm, config_.layer_norm_eps, normed);
    block.self_query_key_value.apply(normed, projected);
    for (std::size_t i = 0; i < sequences.size(); ++i) {
      const Eigen::Index rows = first_row[i + 1] - first_row[i];
      self_attend(projected.middleRows(first_row[i], rows), context.middleRows(first_row[i], rows));
    }
    block.self_output.apply(context, attended);
    hidden += attended;
    add_feed_forward(block, hidden);
  }
  nn::Matrix<float> encoded;
  rms_norm(hidden, encoder_final_norm_, config_.layer_norm_eps, encoded);
  keep(encoded);
  return encoded;
}

nn::Matrix<float> T5Model::run_decoder(const nn::Matrix<float>& encoded, const std::vector<Eigen::Index>& first_row) const {
  const auto count = static_cast<Eigen::Index>(first_row.size() - 1);
  const Eigen::Index head_size = config_.d_kv;
  const Eigen::Index inner = config_.t5_inner_size();
  // One row per sequence: the start token's embedding.
  nn::Matrix<float> hidden(count, config_.hidden_size);
  hidden.rowwise() = shared_.row(config_.decoder_start_token_id);
  nn::Matrix<float> normed;
  nn::Matrix<float> projected;
  nn::Matrix<float> attended;
  nn::Matrix<float> keys_values;
  nn::Matrix<float> context(count, inner);
  nn::Matrix<float> scores;
  for (const PackedBlock& block : decoder_blocks_) {
    rms_norm(hidden, block.self_attention_norm, config_.layer_norm_eps, normed);
    block.self_query_key_value.apply(normed, projected);  // the values, which are the context (see the constructor)
    block.self_output.apply(projected, attended);
    hidden += attended;

    // Cross-attention from each sequence's one decoder row over its encoder rows, unscaled and
    // without position bias (the reference's cross-attention has no relative_attention_bias).
    rms_norm(hidden, block.cross_attention_norm, config_.layer_norm_eps, normed);
    block.cross_query.apply(normed, projected);
    block.cross_key_value.apply(encoded, keys_values);
    for (Eigen::Index s = 0; s < count; ++s) {
      const Eigen::Index rows = first_row[static_cast<std::size_t>(s) + 1] - first_row[static_cast<std::size_t>(s)];
      const auto own = keys_values.middleRows(first_row[static_cast<std::size_t>(s)], rows);
      scores.resize(1, rows);
      for (Eigen::Index head = 0; head < config_.num_attention_heads; ++head) {
        multiply_by_transpose(projected.block(s, head * head_size, 1, head_size), own.middleCols(head * head_size, head_size), scores);
        softmax_rows_in_place(scores);
        multiply(scores, own.middleCols(inner + head * head_size, head_size), context.block(s, head * head_size, 1, head_size));
      }
    }
    block.cross_output.apply(context, attended);
    hidden += attended;
    add_feed_forward(block, hidden);
  }
  nn::Matrix<float> decoded;
  rms_norm(hidden, decoder_final_norm_, config_.layer_norm_eps, decoded);
  // With tied embeddings the reference rescales the decoder's output before lm_head (by the
  // float32 rounding of d_model ** -0.5); untied (v1.1, Flan-T5) it does not.
  if (config_.tie_word_embeddings) decoded *= static_cast<float>(std::pow(static_cast<double>(config_.hidden_size), -0.5));
  return decoded;
}

std::vector<T5Outputs> T5Model::run_stack(const std::vector<const TokenSequence*>& sequences, bool keep_states) const {
  // Sequence i holds rows [first_row[i], first_row[i + 1]) of the encoder's stacked matrices.
  std::vector<Eigen::Index> first_row(sequences.size() + 1, 0);
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    const std::string problem = input_problem(*sequences[i]);
    if (!problem.empty()) throw InternalError("T5Model::run_stack called on a sequence with " + problem);
    first_row[i + 1] = first_row[i] + static_cast<Eigen::Index>(sequences[i]->input_ids.size());
  }
  std::vector<T5Outputs> outputs(sequences.size());
  if (sequences.empty()) return outputs;
  const nn::Matrix<float> encoded = run_encoder(sequences, first_row, keep_states, outputs);
  const nn::Matrix<float> decoded = run_decoder(encoded, first_row);
  // Only the label tokens' rows of lm_head are computed: the outputs are their logits alone.
  nn::Matrix<float> logits;
  label_rows_.apply(decoded, logits);
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    const auto row = logits.row(static_cast<Eigen::Index>(i));
    outputs[i].label_logits.assign(row.data(), row.data() + row.size());
  }
  return outputs;
}

}  // namespace claimrag::pretrained
