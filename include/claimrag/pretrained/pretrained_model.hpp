#pragma once
// A Hugging Face checkpoint folder loaded for inference: config.json, the safetensors weights, and
// the head the folder describes: a sequence classifier (labels by config.json's id2label), a
// one-logit scorer (a cross-encoder reranker), or sentence embeddings (sentence-transformers'
// modules.json and pooling). A T5 folder is a classifier over label tokens the caller names: its
// outputs are the logits of those tokens at the decoder's first step (t5_model.hpp), so that it
// reads like a sequence classifier to everything above it. Sequences run in length-sorted batches,
// split into stacks of similar lengths that share each product (encoder.hpp), one stack a thread;
// outputs are the same bytes for any thread count, batch size and batch composition.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "claimrag/nn/parameter.hpp"
#include "claimrag/pretrained/classification_head.hpp"
#include "claimrag/pretrained/encoder.hpp"
#include "claimrag/pretrained/model_config.hpp"
#include "claimrag/pretrained/precision.hpp"
#include "claimrag/pretrained/sentence_pooling.hpp"
#include "claimrag/pretrained/t5_model.hpp"

namespace claimrag::pretrained {

/// What the model outputs for a sequence.
enum class HeadKind {
  classification,  ///< logits over config.labels (two or more); for T5, the label tokens' logits
  score,           ///< one logit: a relevance score
  embedding,       ///< a sentence vector
};

/// "classification", "score" or "embedding".
std::string head_kind_name(HeadKind kind);

/// The output of one sequence.
struct Prediction {
  std::vector<float> values;  ///< logits (classification, score) or the embedding
  std::vector<nn::Matrix<float>> hidden_states;  ///< when asked: embeddings' output, then each layer's (T5: its encoder's, t5_model.hpp)
};

struct RunOptions {
  std::size_t batch_size = 32;  ///< sequences held in memory at once (> 0)
  bool keep_hidden_states = false;
};

/// What the caller says about a checkpoint that its folder does not.
struct LoadOptions {
  Precision precision = default_checkpoint_precision();  ///< the linear layers' precision
  /// T5 folders only, where they are required: the vocabulary ids whose logits at the decoder's
  /// first step are the model's outputs, one per label, in label order (MiniCheck-Flan-T5: {3, 209},
  /// whose softmax is P(unsupported), P(supported)). Each must be below config.json's vocab_size.
  std::vector<std::int32_t> label_tokens;
};

class PretrainedModel {
 public:
  PretrainedModel(std::filesystem::path folder, Encoder encoder, HeadKind head,
                  ClassificationHead classification, SentencePooling pooling);
  /// A T5 folder: a classification over its label tokens.
  PretrainedModel(std::filesystem::path folder, T5Model t5);

  [[nodiscard]] HeadKind head() const { return head_; }
  [[nodiscard]] const ModelConfig& config() const { return t5_ ? t5_->config() : encoder_->config(); }
  /// The encoder of a BERT, RoBERTa or DeBERTa folder (InternalError for T5).
  [[nodiscard]] const Encoder& encoder() const;
  [[nodiscard]] Precision precision() const { return t5_ ? t5_->precision() : encoder_->precision(); }
  /// The label tokens a T5 model outputs the logits of; empty for the other families.
  [[nodiscard]] std::vector<std::int32_t> label_tokens() const;
  [[nodiscard]] const std::filesystem::path& folder() const { return folder_; }
  /// "deberta-v2, 6 layers, hidden 768, classification over 3 labels", for logs and records.
  [[nodiscard]] std::string description() const;
  /// Encoder::input_problem() or T5Model::input_problem(): why `sequence` cannot run, or "".
  [[nodiscard]] std::string input_problem(const TokenSequence& sequence) const;

  /// UsageError when the head is not `wanted`, naming the folder, what it has and `purpose`
  /// ("a dense encoder needs embeddings").
  void require_head(HeadKind wanted, const std::string& purpose) const;

  /// The predictions of `sequences`, in their order. Every sequence must have no
  /// Encoder::input_problem() (DataError naming the sequence's index otherwise, before any work).
  [[nodiscard]] std::vector<Prediction> predict(const std::vector<TokenSequence>& sequences, const RunOptions& options) const;

 private:
  /// The predictions of sequences encoded together in one stack, on the calling thread.
  [[nodiscard]] std::vector<Prediction> predict_stack(const std::vector<const TokenSequence*>& sequences,
                                                      bool keep_hidden_states) const;
  /// DataError naming the folder when a prediction holds NaN or infinity.
  void require_finite_outputs(const std::vector<Prediction>& predictions) const;

  std::filesystem::path folder_;
  std::optional<Encoder> encoder_;  ///< one of the two
  std::optional<T5Model> t5_;
  HeadKind head_;
  ClassificationHead classification_;
  SentencePooling pooling_;
};

/// Loads `folder`. The head is an embedding one when the folder has modules.json, else a
/// classifier when config.json's architectures name a *ForSequenceClassification class (a score
/// when id2label has one label). DataError naming the file for a missing config or weights, an
/// unknown model_type or head (the message lists the supported ones), a missing, unexpected or
/// misshapen tensor, an unsupported dtype, or a NaN weight.
/// A T5 folder (model_type "t5") needs `options.label_tokens`: UsageError naming the folder without
/// them, or for a token outside the vocabulary, or for a count that differs from id2label's labels
/// (labels: id2label, else LABEL_0, LABEL_1 as the reference's default); label tokens given for
/// another family are a UsageError too. The linear layers compute in `options.precision`.
PretrainedModel load_pretrained_model(const std::filesystem::path& folder, const LoadOptions& options);
/// The same with no label tokens, at `precision` (default: --precision's, else f32).
PretrainedModel load_pretrained_model(const std::filesystem::path& folder, Precision precision = default_checkpoint_precision());

}  // namespace claimrag::pretrained
