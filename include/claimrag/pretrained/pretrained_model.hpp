#pragma once
// A Hugging Face encoder folder loaded for inference: config.json, the safetensors weights, and
// the head the folder describes: a sequence classifier (labels by config.json's id2label), a
// one-logit scorer (a cross-encoder reranker), or sentence embeddings (sentence-transformers'
// modules.json and pooling). Sequences run in length-sorted batches, split into stacks of similar
// lengths that share each product (encoder.hpp), one stack a thread; outputs are the same bytes
// for any thread count, batch size and batch composition.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/nn/parameter.hpp"
#include "claimrag/pretrained/classification_head.hpp"
#include "claimrag/pretrained/encoder.hpp"
#include "claimrag/pretrained/model_config.hpp"
#include "claimrag/pretrained/precision.hpp"
#include "claimrag/pretrained/sentence_pooling.hpp"

namespace claimrag::pretrained {

/// What the model outputs for a sequence.
enum class HeadKind {
  classification,  ///< logits over config.labels (two or more)
  score,           ///< one logit: a relevance score
  embedding,       ///< a sentence vector
};

/// "classification", "score" or "embedding".
std::string head_kind_name(HeadKind kind);

/// The output of one sequence.
struct Prediction {
  std::vector<float> values;  ///< logits (classification, score) or the embedding
  std::vector<nn::Matrix<float>> hidden_states;  ///< when asked: embeddings' output, then each layer's
};

struct RunOptions {
  std::size_t batch_size = 32;  ///< sequences held in memory at once (> 0)
  bool keep_hidden_states = false;
};

class PretrainedModel {
 public:
  PretrainedModel(std::filesystem::path folder, Encoder encoder, HeadKind head,
                  ClassificationHead classification, SentencePooling pooling);

  [[nodiscard]] HeadKind head() const { return head_; }
  [[nodiscard]] const ModelConfig& config() const { return encoder_.config(); }
  [[nodiscard]] const Encoder& encoder() const { return encoder_; }
  [[nodiscard]] const std::filesystem::path& folder() const { return folder_; }
  /// "deberta-v2, 6 layers, hidden 768, classification over 3 labels", for logs and records.
  [[nodiscard]] std::string description() const;

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
  Encoder encoder_;
  HeadKind head_;
  ClassificationHead classification_;
  SentencePooling pooling_;
};

/// Loads `folder`. The head is an embedding one when the folder has modules.json, else a
/// classifier when config.json's architectures name a *ForSequenceClassification class (a score
/// when id2label has one label). DataError naming the file for a missing config or weights, an
/// unknown model_type or head (the message lists the supported ones), a missing, unexpected or
/// misshapen tensor, an unsupported dtype, or a NaN weight.
/// The linear layers compute in `precision` (default: --precision's, else f32).
PretrainedModel load_pretrained_model(const std::filesystem::path& folder, Precision precision = default_checkpoint_precision());

}  // namespace claimrag::pretrained
