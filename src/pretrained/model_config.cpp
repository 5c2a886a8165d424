#include "claimrag/pretrained/model_config.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"

namespace claimrag::pretrained {
namespace {

using nlohmann::json;

struct KnownType {
  const char* model_type;
  Architecture architecture;
};

// model_types whose checkpoints share one of the forward passes tensor for tensor.
constexpr KnownType kKnownTypes[] = {
    {"bert", Architecture::bert},
    {"roberta", Architecture::roberta},
    {"xlm-roberta", Architecture::roberta},
    {"deberta-v2", Architecture::deberta_v2},
    {"deberta", Architecture::deberta_v2},  // v1: the same forward pass over other tensor names, without buckets
    {"t5", Architecture::t5},
};

class ConfigReader {
 public:
  ConfigReader(const json& object, std::string file) : object_(object), file_(std::move(file)) {}

  std::int64_t integer(const char* key, std::int64_t fallback, bool required = false) const {
    const auto found = object_.find(key);
    if (found == object_.end() || found->is_null()) {
      if (required) throw DataError(file_, std::string("no \"") + key + "\"");
      return fallback;
    }
    if (!found->is_number_integer()) throw DataError(file_, std::string("\"") + key + "\" is not an integer: " + found->dump());
    return found->get<std::int64_t>();
  }
  std::int64_t positive(const char* key, std::int64_t fallback, bool required = false) const {
    const std::int64_t value = integer(key, fallback, required);
    if (value <= 0) throw DataError(file_, std::string("\"") + key + "\" must be positive, got " + std::to_string(value));
    return value;
  }
  double number(const char* key, double fallback) const {
    const auto found = object_.find(key);
    if (found == object_.end() || found->is_null()) return fallback;
    if (!found->is_number()) throw DataError(file_, std::string("\"") + key + "\" is not a number: " + found->dump());
    return found->get<double>();
  }
  bool boolean(const char* key, bool fallback) const {
    const auto found = object_.find(key);
    if (found == object_.end() || found->is_null()) return fallback;
    if (!found->is_boolean()) throw DataError(file_, std::string("\"") + key + "\" is not true or false: " + found->dump());
    return found->get<bool>();
  }
  std::string text(const char* key, const std::string& fallback) const {
    const auto found = object_.find(key);
    if (found == object_.end() || found->is_null()) return fallback;
    if (!found->is_string()) throw DataError(file_, std::string("\"") + key + "\" is not a string: " + found->dump());
    return found->get<std::string>();
  }
  // A list of strings, or one string of names joined by '|' (DeBERTa writes both).
  std::vector<std::string> names(const char* key) const {
    std::vector<std::string> result;
    const auto found = object_.find(key);
    if (found == object_.end() || found->is_null()) return result;
    const auto add = [&](const std::string& joined) {
      std::stringstream stream(joined);
      std::string part;
      while (std::getline(stream, part, '|')) {
        part.erase(0, part.find_first_not_of(" \t"));
        part.erase(part.find_last_not_of(" \t") + 1);
        std::transform(part.begin(), part.end(), part.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (!part.empty()) result.push_back(part);
      }
    };
    if (found->is_string()) {
      add(found->get<std::string>());
    } else if (found->is_array()) {
      for (const auto& item : *found) {
        if (!item.is_string()) throw DataError(file_, std::string("\"") + key + "\" holds a non-string: " + item.dump());
        add(item.get<std::string>());
      }
    } else {
      throw DataError(file_, std::string("\"") + key + "\" is neither a string nor a list: " + found->dump());
    }
    return result;
  }
  const json& raw() const { return object_; }
  const std::string& file() const { return file_; }

 private:
  const json& object_;
  std::string file_;
};

// id2label as a dense list: keys must be the ids 0..n-1 (written as strings in JSON).
std::vector<std::string> read_labels(const ConfigReader& reader) {
  const auto found = reader.raw().find("id2label");
  if (found == reader.raw().end() || found->is_null()) return {};
  if (!found->is_object()) throw DataError(reader.file(), "\"id2label\" is not an object");
  std::map<std::int64_t, std::string> by_id;
  for (const auto& [key, value] : found->items()) {
    std::size_t used = 0;
    std::int64_t id = -1;
    try {
      id = std::stoll(key, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != key.size() || id < 0) throw DataError(reader.file(), "\"id2label\" key '" + key + "' is not a label id");
    if (!value.is_string()) throw DataError(reader.file(), "\"id2label\" value of " + key + " is not a string");
    by_id[id] = value.get<std::string>();
  }
  std::vector<std::string> labels;
  std::map<std::string, std::int64_t> id_of_name;
  for (const auto& [id, name] : by_id) {
    if (id != static_cast<std::int64_t>(labels.size())) {
      throw DataError(reader.file(), "\"id2label\" lacks id " + std::to_string(labels.size()));
    }
    // The reference's label2id keeps one id per name: a name given twice would lose a label.
    if (const auto [first, added] = id_of_name.emplace(name, id); !added) {
      throw DataError(reader.file(), "\"id2label\" names label '" + name + "' twice (ids " + std::to_string(first->second) +
                                         " and " + std::to_string(id) + ")");
    }
    labels.push_back(name);
  }
  return labels;
}

void read_deberta_options(const ConfigReader& reader, ModelConfig& config) {
  config.embedding_size = reader.positive("embedding_size", config.hidden_size);
  config.relative_attention = reader.boolean("relative_attention", false);
  config.max_relative_positions = reader.integer("max_relative_positions", -1);
  // DeBERTa v1 knows no position buckets, shared keys or normed relative embeddings: its model
  // ignores those keys, and refuses none.
  config.deberta_v1 = config.model_type == "deberta";
  if (config.deberta_v1 && reader.boolean("talking_head", false)) {
    throw DataError(reader.file(), "talking_head (DeBERTa v1's head projections) is not supported");
  }
  config.position_buckets = config.deberta_v1 ? -1 : reader.integer("position_buckets", -1);
  for (const auto& type : reader.names("pos_att_type")) {
    if (type == "c2p") {
      config.attends_content_to_position = true;
    } else if (type == "p2c") {
      config.attends_position_to_content = true;
    } else {
      throw DataError(reader.file(), "unknown pos_att_type '" + type + "' (supported: c2p, p2c)");
    }
  }
  config.share_att_key = !config.deberta_v1 && reader.boolean("share_att_key", false);
  for (const auto& norm : config.deberta_v1 ? std::vector<std::string>{} : reader.names("norm_rel_ebd")) {
    if (norm == "layer_norm") {
      config.norm_rel_ebd_layer_norm = true;
    } else if (norm != "none") {
      throw DataError(reader.file(), "unknown norm_rel_ebd '" + norm + "' (supported: none, layer_norm)");
    }
  }
  config.position_biased_input = reader.boolean("position_biased_input", true);
  config.pooler_hidden_size = reader.positive("pooler_hidden_size", config.hidden_size);
  config.pooler_hidden_act = parse_activation(reader.text("pooler_hidden_act", "gelu"), reader.file(), "pooler_hidden_act");
  if (reader.integer("conv_kernel_size", 0) > 0) {
    throw DataError(reader.file(), "conv_kernel_size > 0 (DeBERTa's convolution layer) is not supported");
  }
  if (config.pooler_hidden_size != config.hidden_size) {
    throw DataError(reader.file(), "pooler_hidden_size " + std::to_string(config.pooler_hidden_size) +
                                       " differs from hidden_size " + std::to_string(config.hidden_size) +
                                       " (the classifier reads hidden_size values)");
  }
}

// Options of BERT and RoBERTa configurations that would change the forward pass claimrag runs:
// refused by name rather than run silently wrong.
void refuse_unsupported_bert_options(const ConfigReader& reader) {
  const std::string position_type = reader.text("position_embedding_type", "absolute");
  if (position_type != "absolute") {
    throw DataError(reader.file(), "position_embedding_type \"" + position_type +
                                       "\" is not supported (only \"absolute\" positions are run)");
  }
  if (reader.boolean("is_decoder", false)) {
    throw DataError(reader.file(), "is_decoder is true: a decoder's causal attention is not supported");
  }
}

// Options of every family that change the forward pass and are not run.
void refuse_unsupported_options(const ConfigReader& reader) {
  const auto pruned = reader.raw().find("pruned_heads");
  if (pruned != reader.raw().end() && !pruned->is_null() && !pruned->empty()) {
    throw DataError(reader.file(), "pruned_heads is not empty: checkpoints with pruned attention heads are not supported");
  }
}

// feed_forward_proj as T5Config reads it: "ACT" (wi, then wo) or "gated-ACT" (the activated wi_0
// times wi_1, then wo), "gated-gelu" meaning the tanh approximation (gelu_new). A malformed value
// is refused even when dense_act_fn is given, as the reference refuses it.
void read_t5_feed_forward(const ConfigReader& reader, ModelConfig& config) {
  const std::string proj = reader.text("feed_forward_proj", "relu");
  const std::size_t dash = proj.find('-');
  config.gated_feed_forward = dash != std::string::npos && proj.compare(0, dash, "gated") == 0;
  const std::string name = dash == std::string::npos ? proj : proj.substr(dash + 1);
  const bool malformed = (dash != std::string::npos && !config.gated_feed_forward) || name.find('-') != std::string::npos;
  const std::string supported = "(supported: an activation such as relu or gelu, or gated-<activation> such as gated-gelu)";
  if (malformed) throw DataError(reader.file(), "unknown feed_forward_proj '" + proj + "' " + supported);
  // dense_act_fn and is_gated_act, which T5 folders also write, override what feed_forward_proj
  // gives: the reference's configuration sets the file's remaining keys after deriving them.
  const std::string activation = reader.text("dense_act_fn", proj == "gated-gelu" ? "gelu_new" : name);
  config.gated_feed_forward = reader.boolean("is_gated_act", config.gated_feed_forward);
  try {
    config.hidden_act = parse_activation(activation, reader.file(), "dense_act_fn");
  } catch (const DataError&) {
    throw DataError(reader.file(), "unknown feed_forward_proj '" + proj + "' (activation '" + activation + "') " + supported);
  }
}

// T5Config's keys and defaults (t5-small's sizes), read into the fields the encoders share.
void read_t5_config(const ConfigReader& reader, ModelConfig& config) {
  config.vocab_size = reader.positive("vocab_size", 32128);
  config.hidden_size = reader.positive("d_model", 512);
  config.d_kv = reader.positive("d_kv", 64);
  config.intermediate_size = reader.positive("d_ff", 2048);
  config.num_hidden_layers = reader.positive("num_layers", 6);
  config.num_decoder_layers = reader.positive("num_decoder_layers", config.num_hidden_layers);
  config.num_attention_heads = reader.positive("num_heads", 8);
  config.relative_attention_num_buckets = reader.positive("relative_attention_num_buckets", 32);
  config.relative_attention_max_distance = reader.positive("relative_attention_max_distance", 128);
  config.layer_norm_eps = static_cast<float>(reader.number("layer_norm_epsilon", 1e-6));
  read_t5_feed_forward(reader, config);
  config.tie_word_embeddings = reader.boolean("tie_word_embeddings", true);
  config.pad_token_id = reader.integer("pad_token_id", 0);
  config.decoder_start_token_id = reader.integer("decoder_start_token_id", config.pad_token_id);
  config.max_position_embeddings = kT5MaxTokens;
  config.type_vocab_size = 0;
  if (!reader.boolean("is_encoder_decoder", true)) {
    throw DataError(reader.file(), "is_encoder_decoder is false: only T5's encoder-decoder is supported");
  }
  // The encoder's buckets are split in two directions, and each direction's exact half must leave
  // log-spaced buckets below max_distance, or the reference's bucket formula divides by zero.
  const std::int64_t buckets = config.relative_attention_num_buckets;
  if (buckets < 4 || config.relative_attention_max_distance <= buckets / 2) {
    throw DataError(reader.file(), "relative_attention_num_buckets " + std::to_string(buckets) +
                                       " and relative_attention_max_distance " +
                                       std::to_string(config.relative_attention_max_distance) +
                                       " leave no log-spaced buckets (at least 4 buckets, and a distance above half of them)");
  }
  if (config.decoder_start_token_id < 0 || config.decoder_start_token_id >= config.vocab_size) {
    throw DataError(reader.file(), "\"decoder_start_token_id\" " + std::to_string(config.decoder_start_token_id) +
                                       " is not a token id of the vocabulary of " + std::to_string(config.vocab_size));
  }
}

// Sizes beyond any real encoder's, far enough below the int64 range that no product of two
// overflows, and checked before anything is allocated from them.
constexpr std::int64_t kMaxModelSize = std::int64_t{1} << 24;  // vocabulary, hidden and intermediate sizes
constexpr std::int64_t kMaxPositions = std::int64_t{1} << 20;  // positions, relative positions and buckets
constexpr std::int64_t kMaxLayers = 4096;

// The ranges of the values a forward pass indexes or divides by, so that a crafted config.json is
// refused by name instead of reading outside a table or computing NaN.
void check_value_ranges(const ModelConfig& config) {
  const auto at_most = [&](const char* key, std::int64_t value, std::int64_t limit) {
    if (value > limit) {
      throw DataError(config.file, std::string("\"") + key + "\" is " + std::to_string(value) + ", more than the " +
                                       std::to_string(limit) + " claimrag accepts");
    }
  };
  for (const auto& [key, value] : {std::pair{"vocab_size", config.vocab_size}, std::pair{"hidden_size", config.hidden_size},
                                   std::pair{"intermediate_size", config.intermediate_size},
                                   std::pair{"type_vocab_size", config.type_vocab_size},
                                   std::pair{"embedding_size", config.embedding_size}, std::pair{"d_kv", config.d_kv},
                                   std::pair{"num_heads × d_kv", config.t5_inner_size()}}) {
    at_most(key, value, kMaxModelSize);
  }
  at_most("num_hidden_layers", config.num_hidden_layers, kMaxLayers);
  at_most("num_decoder_layers", config.num_decoder_layers, kMaxLayers);
  at_most("relative_attention_num_buckets", config.relative_attention_num_buckets, kMaxPositions);
  at_most("relative_attention_max_distance", config.relative_attention_max_distance, kMaxPositions);
  at_most("max_position_embeddings", config.max_position_embeddings, kMaxPositions);
  at_most("max_relative_positions", config.max_relative_positions, kMaxPositions);
  at_most("position_buckets", config.position_buckets, kMaxPositions);
  if (config.pad_token_id < 0 || config.pad_token_id >= config.vocab_size) {
    throw DataError(config.file, "\"pad_token_id\" " + std::to_string(config.pad_token_id) +
                                     " is not a token id of the vocabulary (0 to vocab_size - 1 = " +
                                     std::to_string(config.vocab_size - 1) + ")");
  }
  // Read as float32, as the model computes: a value too small for a float is 0.
  if (!std::isfinite(config.layer_norm_eps) || !(config.layer_norm_eps > 0.0F)) {
    throw DataError(config.file, "\"layer_norm_eps\" must be a positive number a float32 holds, got " +
                                     std::to_string(config.layer_norm_eps));
  }
}

}  // namespace

std::string architecture_name(Architecture architecture) {
  switch (architecture) {
    case Architecture::bert: return "bert";
    case Architecture::roberta: return "roberta";
    case Architecture::deberta_v2: return "deberta-v2";
    case Architecture::t5: return "t5";
  }
  return "unknown";
}

std::string supported_model_types() {
  std::string text;
  for (const auto& known : kKnownTypes) text += (text.empty() ? "" : ", ") + std::string(known.model_type);
  return text;
}

std::int64_t ModelConfig::max_tokens() const {
  if (architecture == Architecture::roberta) return max_position_embeddings - pad_token_id - 1;
  // Only relative positions: no table of the checkpoint limits the length.
  if (architecture == Architecture::deberta_v2 && relative_attention && !position_biased_input) return kRelativeOnlyMaxTokens;
  return max_position_embeddings;
}

std::int64_t ModelConfig::attention_span() const {
  if (position_buckets > 0) return position_buckets;
  return max_relative_positions < 1 ? max_position_embeddings : max_relative_positions;
}

ModelConfig read_model_config(const std::filesystem::path& folder) {
  const auto path = folder / "config.json";
  ModelConfig config;
  config.file = path.string();
  if (!std::filesystem::exists(path)) throw DataError(config.file, "no config.json in the checkpoint folder");
  json object;
  try {
    object = json::parse(io::read_json_text(path));
  } catch (const json::parse_error& error) {
    throw DataError(config.file, std::string("malformed JSON: ") + error.what());
  }
  if (!object.is_object()) throw DataError(config.file, "not a JSON object");
  const ConfigReader reader(object, config.file);

  config.model_type = reader.text("model_type", "");
  const auto known = std::find_if(std::begin(kKnownTypes), std::end(kKnownTypes),
                                  [&](const KnownType& k) { return config.model_type == k.model_type; });
  if (known == std::end(kKnownTypes)) {
    throw DataError(config.file, "unknown model_type '" + config.model_type + "' (supported: " + supported_model_types() + ")");
  }
  config.architecture = known->architecture;
  if (object.contains("architectures") && object["architectures"].is_array()) {
    for (const auto& name : object["architectures"]) {
      if (name.is_string()) config.architectures.push_back(name.get<std::string>());
    }
  }

  if (config.architecture == Architecture::t5) {
    refuse_unsupported_options(reader);
    read_t5_config(reader, config);
    config.labels = read_labels(reader);
    check_value_ranges(config);
    return config;
  }
  config.vocab_size = reader.positive("vocab_size", 0, true);
  config.hidden_size = reader.positive("hidden_size", 0, true);
  config.num_hidden_layers = reader.positive("num_hidden_layers", 0, true);
  config.num_attention_heads = reader.positive("num_attention_heads", 0, true);
  config.intermediate_size = reader.positive("intermediate_size", 0, true);
  config.hidden_act = parse_activation(reader.text("hidden_act", "gelu"), config.file, "hidden_act");
  const bool deberta = config.architecture == Architecture::deberta_v2;
  config.layer_norm_eps = static_cast<float>(reader.number("layer_norm_eps", deberta ? 1e-7 : 1e-12));
  config.max_position_embeddings = reader.positive("max_position_embeddings", 512);
  config.type_vocab_size = reader.integer("type_vocab_size", deberta ? 0 : 2);
  if (config.type_vocab_size < 0) throw DataError(config.file, "\"type_vocab_size\" is negative");
  config.pad_token_id = reader.integer("pad_token_id", config.architecture == Architecture::roberta ? 1 : 0);
  config.labels = read_labels(reader);

  if (config.hidden_size % config.num_attention_heads != 0) {
    throw DataError(config.file, "hidden_size " + std::to_string(config.hidden_size) + " is not a multiple of " +
                                     std::to_string(config.num_attention_heads) + " attention heads");
  }
  refuse_unsupported_options(reader);
  if (deberta) {
    read_deberta_options(reader, config);
  } else {
    refuse_unsupported_bert_options(reader);
  }
  check_value_ranges(config);
  if (config.architecture == Architecture::roberta && config.max_tokens() < 1) {
    throw DataError(config.file, "max_position_embeddings leaves no position after padding_idx " +
                                     std::to_string(config.pad_token_id));
  }
  if (deberta && object.contains("attention_head_size") &&
      reader.integer("attention_head_size", 0) * config.num_attention_heads != config.hidden_size) {
    throw DataError(config.file, "attention_head_size times the heads must equal hidden_size");
  }
  return config;
}

}  // namespace claimrag::pretrained
