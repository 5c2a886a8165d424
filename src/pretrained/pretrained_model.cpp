#include "claimrag/pretrained/pretrained_model.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <omp.h>
#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"
#include "claimrag/io/model_folder.hpp"
#include "claimrag/parallel_for.hpp"
#include "claimrag/pretrained/model_clock.hpp"
#include "claimrag/pretrained/run_progress.hpp"
#include "claimrag/sequential_eigen.hpp"

namespace claimrag::pretrained {
namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

HeadKind choose_head(const std::filesystem::path& folder, ModelConfig& config) {
  if (has_sentence_modules(folder)) return HeadKind::embedding;
  const bool classifier = std::any_of(config.architectures.begin(), config.architectures.end(),
                                      [](const std::string& name) { return ends_with(name, "ForSequenceClassification"); });
  if (!classifier) {
    std::string named;
    for (const auto& name : config.architectures) named += (named.empty() ? "" : ", ") + name;
    throw DataError(config.file, "no head claimrag runs: architectures [" + named +
                                     "] and no modules.json (supported: a *ForSequenceClassification architecture "
                                     "for labels or a one-logit score; a sentence-transformers modules.json for embeddings)");
  }
  // The reference library's default when a config has no id2label: two labels, LABEL_0 and LABEL_1.
  if (config.labels.empty()) config.labels = {"LABEL_0", "LABEL_1"};
  return config.labels.size() == 1 ? HeadKind::score : HeadKind::classification;
}

// As the reference library does: the checkpoint's tensors the model does not hold are dropped
// with one warning naming them all; DeBERTa's stored absolute position tables are dropped silently
// (its load-time pattern "position_embeddings").
void warn_unused(const CheckpointTensors& tensors, const ModelConfig& config, const std::filesystem::path& folder) {
  std::vector<std::string> unused = tensors.unused();
  if (config.architecture == Architecture::deberta_v2) {
    std::erase_if(unused, [](const std::string& name) { return name.find("position_embeddings") != std::string::npos; });
  }
  if (unused.empty()) return;
  std::string names;
  for (const auto& name : unused) names += (names.empty() ? "" : ", ") + name;
  spdlog::warn("{}: {} tensor(s) of the checkpoint are not part of the model config.json describes and were ignored: {}",
               folder.string(), unused.size(), names);
}

// Most rows a stack of sequences gathers: enough that the per-product overhead is small, few
// enough that a stack's activations (4 × hidden floats a row, the feed-forward's more) stay in the
// core's caches.
constexpr std::size_t kStackRows = 256;

// Splits the batch order[start, start + count) (longest first) into stacks of consecutive
// sequences: returns the stacks' first positions in `order`, then start + count. A stack holds at
// most kStackRows tokens (a longer sequence alone), and fewer when that leaves every thread a stack.
// Which sequences share a stack does not change their outputs, only the speed.
std::vector<std::size_t> stack_boundaries(const std::vector<TokenSequence>& sequences, const std::vector<std::size_t>& order,
                                          std::size_t start, std::size_t count, std::size_t threads) {
  std::size_t total_rows = 0;
  for (std::size_t k = start; k < start + count; ++k) total_rows += sequences[order[k]].input_ids.size();
  const std::size_t row_limit = std::min(kStackRows, (total_rows + threads - 1) / threads);
  std::vector<std::size_t> boundaries{start};
  std::size_t rows = 0;
  for (std::size_t k = start; k < start + count; ++k) {
    const std::size_t length = sequences[order[k]].input_ids.size();
    if (rows > 0 && rows + length > row_limit) {
      boundaries.push_back(k);
      rows = 0;
    }
    rows += length;
  }
  boundaries.push_back(start + count);
  return boundaries;
}

// A T5 folder's head: the caller's label tokens, checked against the folder, and its labels
// (id2label, else the reference's default LABEL_0, LABEL_1), one per token.
void check_t5_labels(const std::filesystem::path& folder, ModelConfig& config, const std::vector<std::int32_t>& label_tokens) {
  if (label_tokens.empty()) {
    throw UsageError(folder.string() + ": a T5 checkpoint outputs the logits of label tokens, and none were given "
                                       "(MiniCheck-Flan-T5 reads tokens 3 and 209; predict takes them as --label-tokens 3,209)");
  }
  for (const std::int32_t token : label_tokens) {
    if (token < 0 || token >= config.vocab_size) {
      throw UsageError(folder.string() + ": label token " + std::to_string(token) + " is not a token id of the vocabulary (0 to " +
                       std::to_string(config.vocab_size - 1) + ")");
    }
  }
  if (config.labels.empty()) config.labels = {"LABEL_0", "LABEL_1"};
  if (config.labels.size() != label_tokens.size()) {
    throw UsageError(folder.string() + ": " + std::to_string(label_tokens.size()) + " label tokens for the " +
                     std::to_string(config.labels.size()) + " labels of config.json (id2label, else LABEL_0 and LABEL_1)");
  }
}

PretrainedModel load_t5_model(const std::filesystem::path& folder, ModelConfig config, const LoadOptions& options) {
  const bool conditional_generation =
      config.architectures.empty() || std::find(config.architectures.begin(), config.architectures.end(),
                                                "T5ForConditionalGeneration") != config.architectures.end();
  if (!conditional_generation) {
    throw DataError(config.file, "a T5 checkpoint runs as T5ForConditionalGeneration (encoder, decoder and lm_head), "
                                 "which architectures does not name");
  }
  check_t5_labels(folder, config, options.label_tokens);
  CheckpointTensors tensors(folder);
  T5Weights weights = load_t5_weights(config, tensors, options.label_tokens);
  tensors.require_no_missing();
  warn_unused(tensors, config, folder);
  return PretrainedModel(folder, T5Model(std::move(config), std::move(weights), options.label_tokens, options.precision));
}

}  // namespace

std::string head_kind_name(HeadKind kind) {
  switch (kind) {
    case HeadKind::classification: return "classification";
    case HeadKind::score: return "score";
    case HeadKind::embedding: return "embedding";
  }
  return "unknown";
}

PretrainedModel::PretrainedModel(std::filesystem::path folder, Encoder encoder, HeadKind head,
                                 ClassificationHead classification, SentencePooling pooling)
    : folder_(std::move(folder)),
      encoder_(std::move(encoder)),
      head_(head),
      classification_(std::move(classification)),
      pooling_(std::move(pooling)) {}

PretrainedModel::PretrainedModel(std::filesystem::path folder, T5Model t5)
    : folder_(std::move(folder)), t5_(std::move(t5)), head_(HeadKind::classification) {}

const Encoder& PretrainedModel::encoder() const {
  if (!encoder_) throw InternalError(folder_.string() + ": a T5 model has no encoder-only forward pass");
  return *encoder_;
}

std::vector<std::int32_t> PretrainedModel::label_tokens() const { return t5_ ? t5_->label_tokens() : std::vector<std::int32_t>{}; }

std::string PretrainedModel::input_problem(const TokenSequence& sequence) const {
  return t5_ ? t5_->input_problem(sequence) : encoder_->input_problem(sequence);
}

std::string PretrainedModel::description() const {
  const auto& c = config();
  const std::string layers = t5_ ? std::to_string(c.num_hidden_layers) + " + " + std::to_string(c.num_decoder_layers)
                                 : std::to_string(c.num_hidden_layers);
  std::string text = c.model_type + ", " + layers + " layers, hidden " + std::to_string(c.hidden_size) + ", ";
  if (t5_) {
    std::string tokens;
    for (const auto token : t5_->label_tokens()) tokens += (tokens.empty() ? "" : ", ") + std::to_string(token);
    text += "classification over " + std::to_string(c.labels.size()) + " label tokens (" + tokens + ")";
  } else {
    switch (head_) {
      case HeadKind::classification: text += "classification over " + std::to_string(c.labels.size()) + " labels"; break;
      case HeadKind::score: text += "one-logit score"; break;
      case HeadKind::embedding: text += "embedding (" + pooling_.description + ")"; break;
    }
  }
  if (precision() != Precision::f32) text += ", " + precision_name(precision()) + " weights";
  return text;
}

void PretrainedModel::require_head(HeadKind wanted, const std::string& purpose) const {
  if (head_ == wanted) return;
  throw UsageError(folder_.string() + ": " + purpose + ", but this checkpoint has a " + head_kind_name(head_) +
                   " head (" + description() + ")");
}

void PretrainedModel::require_finite_outputs(const std::vector<Prediction>& predictions) const {
  for (std::size_t i = 0; i < predictions.size(); ++i) {
    const auto& values = predictions[i].values;
    const auto bad = std::find_if(values.begin(), values.end(), [](float value) { return !std::isfinite(value); });
    if (bad == values.end()) continue;
    // Finite inputs give finite outputs unless the model itself is broken (layer_norm_eps, weights
    // near the float range): the folder is to blame, not the input.
    throw DataError(folder_.string(), "the model computed " + std::to_string(*bad) + " for input " + std::to_string(i + 1) +
                                          ": its configuration or weights are broken (" + description() + ")");
  }
}

std::vector<Prediction> PretrainedModel::predict_stack(const std::vector<const TokenSequence*>& sequences,
                                                       bool keep_hidden_states) const {
  if (t5_) {
    std::vector<T5Outputs> outputs = t5_->run_stack(sequences, keep_hidden_states);
    std::vector<Prediction> predictions(sequences.size());
    for (std::size_t i = 0; i < sequences.size(); ++i) {
      predictions[i].values = std::move(outputs[i].label_logits);
      predictions[i].hidden_states = std::move(outputs[i].encoder_states);
    }
    return predictions;
  }
  std::vector<EncoderStates> states = encoder_->encode_stack(sequences, keep_hidden_states);
  std::vector<Prediction> predictions(sequences.size());
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    const nn::Matrix<float> values =
        head_ == HeadKind::embedding ? pool_tokens(pooling_, states[i].last) : classify(classification_, states[i].last);
    predictions[i].values.assign(values.data(), values.data() + values.size());
    predictions[i].hidden_states = std::move(states[i].layers);
  }
  return predictions;
}

std::vector<Prediction> PretrainedModel::predict(const std::vector<TokenSequence>& sequences, const RunOptions& options) const {
  const StageTimer timer(ModelStage::running);
  if (options.batch_size == 0) throw UsageError("the batch size must be positive");
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    const std::string problem = input_problem(sequences[i]);
    // The tokenizer and the model of one folder disagree (a token id outside the embeddings, a
    // sequence longer than the positions): the folder is to blame.
    if (!problem.empty()) throw DataError(folder_.string(), "sequence " + std::to_string(i + 1) + ": " + problem);
  }
  // Longest first, ties in input order: batches hold sequences of similar lengths, and the
  // longest start first so the threads finish together.
  std::vector<std::size_t> order(sequences.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return sequences[a].input_ids.size() > sequences[b].input_ids.size();
  });
  const SequentialEigenProducts sequential;
  std::vector<Prediction> predictions(sequences.size());
  RunProgress progress(folder_.string(), sequences.size());
  const auto threads = static_cast<std::size_t>(std::max(1, omp_get_max_threads()));
  for (std::size_t start = 0; start < order.size(); start += options.batch_size) {
    const std::size_t count = std::min(options.batch_size, order.size() - start);
    const std::vector<std::size_t> stack_starts = stack_boundaries(sequences, order, start, count, threads);
    parallel_for(stack_starts.size() - 1, [&](std::size_t s) {
      std::vector<const TokenSequence*> stack;
      for (std::size_t k = stack_starts[s]; k < stack_starts[s + 1]; ++k) stack.push_back(&sequences[order[k]]);
      std::vector<Prediction> stacked = predict_stack(stack, options.keep_hidden_states);
      for (std::size_t k = stack_starts[s]; k < stack_starts[s + 1]; ++k) predictions[order[k]] = std::move(stacked[k - stack_starts[s]]);
    });
    progress.advance(start + count);
  }
  require_finite_outputs(predictions);
  return predictions;
}

PretrainedModel load_pretrained_model(const std::filesystem::path& folder, Precision precision) {
  LoadOptions options;
  options.precision = precision;
  return load_pretrained_model(folder, options);
}

PretrainedModel load_pretrained_model(const std::filesystem::path& folder, const LoadOptions& options) {
  const StageTimer timer(ModelStage::loading);
  if (std::error_code error; !std::filesystem::is_directory(folder, error)) throw DataError(folder.string(), "not a checkpoint folder");
  // Every file the model and its tokenizer are read from: regular, of a bounded size, no output.
  (void)io::check_model_folder(folder);
  ModelConfig config = read_model_config(folder);
  if (config.architecture == Architecture::t5) return load_t5_model(folder, std::move(config), options);
  if (!options.label_tokens.empty()) {
    throw UsageError(folder.string() + ": label tokens apply to T5 checkpoints, and this one is " + config.model_type);
  }
  const Precision precision = options.precision;
  const HeadKind head = choose_head(folder, config);
  SentencePooling pooling;
  if (head == HeadKind::embedding) pooling = read_sentence_pooling(folder);
  CheckpointTensors tensors(folder);
  const std::string prefix = base_model_prefix(config, tensors);
  if (head != HeadKind::embedding && prefix.empty()) {
    // The reference then loads the file into the base model alone: the head would stay untrained,
    // or, when the file holds it, the file is refused as corrupted.
    throw DataError(tensors.files().front(), "no tensor name starts with '" + base_model_name(config.architecture) +
                                                 "', so the file holds a bare base model, not the sequence classifier "
                                                 "config.json describes");
  }
  EncoderWeights weights = load_encoder_weights(config, tensors, prefix);
  ClassificationHead classification;
  if (head == HeadKind::embedding) {
    // BertModel and RobertaModel, the reference's bare models, hold a pooler that sentence
    // embeddings do not read.
    if (config.architecture != Architecture::deberta_v2) {
      tensors.ignore(prefix + "pooler.dense.weight");
      tensors.ignore(prefix + "pooler.dense.bias");
    }
  } else {
    classification = load_classification_head(config, tensors, prefix);
  }
  tensors.require_no_missing();
  warn_unused(tensors, config, folder);
  Encoder encoder(config, std::move(weights), precision);
  return PretrainedModel(folder, std::move(encoder), head, std::move(classification), std::move(pooling));
}

}  // namespace claimrag::pretrained
