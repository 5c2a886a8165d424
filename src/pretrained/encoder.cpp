#include "claimrag/pretrained/encoder.hpp"

#include <algorithm>
#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/dense_ops.hpp"
#include "claimrag/pretrained/relative_position.hpp"

namespace claimrag::pretrained {
namespace {

void add_rows(nn::Matrix<float>& target, const nn::Matrix<float>& table, const std::vector<std::int64_t>& rows) {
  for (std::size_t t = 0; t < rows.size(); ++t) target.row(static_cast<Eigen::Index>(t)) += table.row(rows[t]);
}

// Rows [first, first + count) of a projection and of its bias: the query or key part of the
// stacked query-key-value projection, which shared-key DeBERTa also applies to its relative embeddings.
LinearWeights projection_rows(const LinearWeights& stacked, Eigen::Index first, Eigen::Index count) {
  return LinearWeights{stacked.weight.middleRows(first, count), stacked.bias.middleCols(first, count)};
}

// scores(i, j) += by_distance(i, offset(i - j)) for every query i and key j, where offset(d) sits at
// d + length - 1. Row i of by_distance is read in place, its columns in the order of the offsets.
void add_by_distance(const nn::Matrix<float>& by_distance, const std::vector<std::int64_t>& offset, nn::Matrix<float>& scores) {
  const Eigen::Index length = scores.rows();
  for (Eigen::Index i = 0; i < length; ++i) {
    const float* source = by_distance.row(i).data();
    const std::int64_t* column = offset.data() + i + length - 1;  // offset of (i, j) at column[-j]
    float* target = scores.row(i).data();
    for (Eigen::Index j = 0; j < length; ++j) target[j] += source[column[-j]];
  }
}

}  // namespace

Encoder::Encoder(ModelConfig config, EncoderWeights weights, Precision precision)
    : config_(std::move(config)), weights_(std::move(weights)), precision_(precision) {
  if (config_.architecture == Architecture::deberta_v2 && config_.relative_attention) {
    const std::int64_t max_relative = config_.max_relative_positions < 1 ? config_.max_position_embeddings
                                                                          : config_.max_relative_positions;
    relative_positions_ = relative_positions(config_.max_tokens(), config_.position_buckets, max_relative);
    // The relative embeddings are fixed, so their projections are computed once per layer.
    const Eigen::Index hidden = config_.hidden_size;
    for (const auto& layer : weights_.layers) {
      nn::Matrix<float> keys;
      nn::Matrix<float> queries;
      if (config_.attends_content_to_position) {
        linear_forward(weights_.relative_embeddings,
                       config_.share_att_key ? projection_rows(layer.query_key_value, hidden, hidden) : layer.position_key, keys);
      }
      if (config_.attends_position_to_content) {
        linear_forward(weights_.relative_embeddings,
                       config_.share_att_key ? projection_rows(layer.query_key_value, 0, hidden) : layer.position_query, queries);
      }
      position_keys_.push_back(std::move(keys));
      position_queries_.push_back(std::move(queries));
    }
  }
  // The layers' weights are packed once and the unpacked copies released, so a loaded model holds
  // each weight once.
  for (auto& layer : weights_.layers) {
    packed_layers_.push_back(PackedEncoderLayer{EncoderLinear(layer.query_key_value, precision_),
                                                EncoderLinear(layer.attention_output, precision_),
                                                EncoderLinear(layer.intermediate, precision_), EncoderLinear(layer.output, precision_)});
    for (LinearWeights* unpacked : {&layer.query_key_value, &layer.attention_output, &layer.intermediate, &layer.output}) {
      *unpacked = LinearWeights{};
    }
  }
}

std::string Encoder::input_problem(const TokenSequence& sequence) const {
  const auto length = static_cast<std::int64_t>(sequence.input_ids.size());
  if (length == 0) return "no tokens";
  if (length > config_.max_tokens()) {
    return std::to_string(length) + " tokens, more than the " + std::to_string(config_.max_tokens()) + " the model's positions allow";
  }
  if (!sequence.token_type_ids.empty() && sequence.token_type_ids.size() != sequence.input_ids.size()) {
    return "token_type_ids and input_ids differ in length";
  }
  for (const auto id : sequence.input_ids) {
    if (id < 0 || id >= config_.vocab_size) {
      return "token id " + std::to_string(id) + " outside the vocabulary of " + std::to_string(config_.vocab_size);
    }
  }
  // DeBERTa without a segment table (type_vocab_size 0, every DeBERTa-v3) ignores the segment ids
  // its tokenizer gives (1 for the second text), as the reference does.
  if (ignores_segment_ids()) return "";
  for (const auto type : sequence.token_type_ids) {
    if (type < 0 || type >= std::max<std::int64_t>(config_.type_vocab_size, 1)) {
      return "segment id " + std::to_string(type) + " outside type_vocab_size " + std::to_string(config_.type_vocab_size);
    }
  }
  return "";
}

bool Encoder::ignores_segment_ids() const {
  return config_.architecture == Architecture::deberta_v2 && config_.type_vocab_size == 0;
}

std::vector<std::int64_t> Encoder::position_ids(const std::vector<std::int32_t>& input_ids) const {
  std::vector<std::int64_t> positions(input_ids.size());
  if (config_.architecture != Architecture::roberta) {
    for (std::size_t t = 0; t < positions.size(); ++t) positions[t] = static_cast<std::int64_t>(t);
    return positions;
  }
  // RoBERTa numbers only the tokens that are not padding_idx, from padding_idx + 1; a pad token
  // (a literal "<pad>" in the text becomes one) sits at padding_idx itself.
  const std::int64_t padding_idx = config_.pad_token_id;
  std::int64_t counted = 0;
  for (std::size_t t = 0; t < positions.size(); ++t) {
    if (input_ids[t] == padding_idx) {
      positions[t] = padding_idx;
    } else {
      positions[t] = padding_idx + ++counted;
    }
  }
  return positions;
}

nn::Matrix<float> Encoder::embed(const TokenSequence& sequence) const {
  const auto length = static_cast<std::int64_t>(sequence.input_ids.size());
  nn::Matrix<float> embeddings(length, weights_.word_embeddings.cols());
  for (std::int64_t t = 0; t < length; ++t) embeddings.row(t) = weights_.word_embeddings.row(sequence.input_ids[static_cast<std::size_t>(t)]);
  std::vector<std::int64_t> types(static_cast<std::size_t>(length), 0);
  for (std::size_t t = 0; t < sequence.token_type_ids.size(); ++t) types[t] = sequence.token_type_ids[t];
  const std::vector<std::int64_t> positions = position_ids(sequence.input_ids);
  const bool has_types = !ignores_segment_ids() && weights_.token_type_embeddings.size() != 0;
  const bool has_positions = weights_.position_embeddings.size() != 0;
  // The reference adds segment embeddings before positions in BERT and RoBERTa, after in DeBERTa.
  if (config_.architecture == Architecture::deberta_v2) {
    if (has_positions) add_rows(embeddings, weights_.position_embeddings, positions);
    if (has_types) add_rows(embeddings, weights_.token_type_embeddings, types);
  } else {
    if (has_types) add_rows(embeddings, weights_.token_type_embeddings, types);
    if (has_positions) add_rows(embeddings, weights_.position_embeddings, positions);
  }
  if (!weights_.embedding_projection.empty()) {
    nn::Matrix<float> projected;
    linear_forward(embeddings, weights_.embedding_projection, projected);
    embeddings = std::move(projected);
  }
  layer_norm_in_place(embeddings, weights_.embedding_norm);
  return embeddings;
}

void Encoder::attend(const ConstRowBlock& projected, std::size_t layer_index, RowBlock context) const {
  const Eigen::Index length = projected.rows();
  const Eigen::Index heads = config_.num_attention_heads;
  const Eigen::Index hidden_size = config_.hidden_size;
  const Eigen::Index head_size = hidden_size / config_.num_attention_heads;
  // The queries, keys and values are column blocks of the one stacked projection.
  const auto queries = projected.middleCols(0, hidden_size);
  const auto keys = projected.middleCols(hidden_size, hidden_size);
  const auto values = projected.middleCols(2 * hidden_size, hidden_size);

  const bool deberta = config_.architecture == Architecture::deberta_v2;
  // DeBERTa divides every term by sqrt(head size × the number of terms), whether or not the
  // relative ones are computed; BERT and RoBERTa by sqrt(head size).
  float scale_factor = 1.0F;
  if (deberta && config_.attends_content_to_position) scale_factor += 1.0F;
  if (deberta && config_.attends_position_to_content) scale_factor += 1.0F;
  const float scale = std::sqrt(static_cast<float>(head_size) * scale_factor);
  const bool relative = deberta && config_.relative_attention;
  const bool content_to_position = relative && config_.attends_content_to_position;
  const bool position_to_content = relative && config_.attends_position_to_content;
  // Only the relative-position rows this length reads enter the products (at most 2 × length - 1
  // of the 2 × span), and each term is then added row by row.
  RelativeRows key_rows;
  RelativeRows query_rows;
  if (content_to_position || position_to_content) {
    const std::int64_t centre = config_.max_tokens() - 1;
    const std::int64_t span = config_.attention_span();
    if (content_to_position) key_rows = relative_rows(relative_positions_, centre, length, span, false);
    if (position_to_content) query_rows = relative_rows(relative_positions_, centre, length, span, true);
  }

  nn::Matrix<float> scores(length, length);
  nn::Matrix<float> by_distance;
  nn::Matrix<float> key_by_query;
  for (Eigen::Index head = 0; head < heads; ++head) {
    const auto head_queries = queries.middleCols(head * head_size, head_size);
    const auto head_keys = keys.middleCols(head * head_size, head_size);
    multiply_by_transpose(head_queries, head_keys, scores, 1.0F / scale);
    if (content_to_position) {
      // Content to position: query i against the key of the relative position of (i, j).
      const auto table = position_keys_[layer_index].block(key_rows.first, head * head_size, key_rows.count, head_size);
      by_distance.resize(length, key_rows.count);
      multiply_by_transpose(head_queries, table, by_distance, 1.0F / scale);
      add_by_distance(by_distance, key_rows.offset, scores);
    }
    if (position_to_content) {
      // Position to content: key j against the query of the relative position of (j, i), negated;
      // gathered with keys as rows, then added transposed.
      const auto table = position_queries_[layer_index].block(query_rows.first, head * head_size, query_rows.count, head_size);
      by_distance.resize(length, query_rows.count);
      multiply_by_transpose(head_keys, table, by_distance, 1.0F / scale);
      key_by_query.setZero(length, length);
      add_by_distance(by_distance, query_rows.offset, key_by_query);
      scores += key_by_query.transpose();
    }
    softmax_rows_in_place(scores);
    multiply(scores, values.middleCols(head * head_size, head_size), context.middleCols(head * head_size, head_size));
  }
}

EncoderStates Encoder::encode(const TokenSequence& sequence, bool keep_layers) const {
  return std::move(encode_stack({&sequence}, keep_layers).front());
}

std::vector<EncoderStates> Encoder::encode_stack(const std::vector<const TokenSequence*>& sequences, bool keep_layers) const {
  // Sequence i holds rows [first_row[i], first_row[i + 1]) of every stacked matrix.
  std::vector<Eigen::Index> first_row(sequences.size() + 1, 0);
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    const std::string problem = input_problem(*sequences[i]);
    if (!problem.empty()) throw InternalError("Encoder::encode called on a sequence with " + problem);
    first_row[i + 1] = first_row[i] + static_cast<Eigen::Index>(sequences[i]->input_ids.size());
  }
  const auto rows_of = [&](auto& stacked, std::size_t i) { return stacked.middleRows(first_row[i], first_row[i + 1] - first_row[i]); };
  std::vector<EncoderStates> states(sequences.size());
  const auto keep = [&](const nn::Matrix<float>& stacked) {
    if (!keep_layers) return;
    for (std::size_t i = 0; i < sequences.size(); ++i) states[i].layers.emplace_back(rows_of(stacked, i));
  };

  nn::Matrix<float> hidden(first_row.back(), config_.hidden_size);
  for (std::size_t i = 0; i < sequences.size(); ++i) rows_of(hidden, i) = embed(*sequences[i]);
  keep(hidden);
  // Every linear layer runs once over the whole stack; attention runs per sequence. Every step
  // but attention works row by row, and the packed products give a row the same bytes whatever
  // it is stacked with, so each sequence's states are those it has alone.
  nn::Matrix<float> projected;
  nn::Matrix<float> context(hidden.rows(), hidden.cols());
  nn::Matrix<float> attended;
  nn::Matrix<float> intermediate;
  nn::Matrix<float> output;
  for (std::size_t l = 0; l < packed_layers_.size(); ++l) {
    const auto& packed = packed_layers_[l];
    const auto& layer = weights_.layers[l];
    packed.query_key_value.apply(hidden, projected);
    for (std::size_t i = 0; i < sequences.size(); ++i) attend(rows_of(projected, i), l, rows_of(context, i));
    packed.attention_output.apply(context, attended);
    attended += hidden;
    layer_norm_in_place(attended, layer.attention_norm);
    packed.intermediate.apply(attended, intermediate);
    apply_activation(config_.hidden_act, intermediate);
    packed.output.apply(intermediate, output);
    output += attended;
    layer_norm_in_place(output, layer.output_norm);
    hidden.swap(output);
    keep(hidden);
  }
  for (std::size_t i = 0; i < sequences.size(); ++i) states[i].last = rows_of(hidden, i);
  return states;
}

}  // namespace claimrag::pretrained
