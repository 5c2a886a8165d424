#pragma once
// A checkpoint folder's model together with its tokenizer: texts (or text pairs) in, the head's
// values out. What the verifier, the dense encoder and the cross-encoder reranker built on a
// pretrained checkpoint share, together with what they record about it (config.json and a
// checksum of the weight files) so that a result names the exact weights it came from.

#include <cstddef>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/pretrained/pretrained_model.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"

namespace claimrag::pretrained {

/// One input: a text, and a second text for a pair (premise, hypothesis; query, passage).
struct TextInput {
  std::string_view text;
  std::optional<std::string_view> text_pair;
};

/// The head's values of each input, in input order, and what truncation removed.
struct TextOutputs {
  std::vector<std::vector<float>> values;    ///< logits (classification, score) or the embedding
  std::vector<std::size_t> truncated_tokens;  ///< per input; 0 when it fitted
};

class TextModel {
 public:
  /// Loads `folder`'s model (load_pretrained_model, with `options`: a T5 folder needs its label
  /// tokens there) and tokenizer (tokenizer::load_tokenizer). A T5 model then gives one value per
  /// label token for each input, as a classifier gives one per label; the caller writes the text
  /// as the checkpoint expects it (MiniCheck: "predict: " + chunk + "</s>" + claim, one text, whose
  /// "</s>" is the end-of-sequence token, with another one appended by the tokenizer).
  explicit TextModel(const std::filesystem::path& folder, const LoadOptions& options = LoadOptions());

  [[nodiscard]] const PretrainedModel& model() const { return model_; }
  [[nodiscard]] const tokenizer::Tokenizer& tokenizer() const { return *tokenizer_; }
  [[nodiscard]] const std::filesystem::path& folder() const { return model_.folder(); }

  /// Tokenises each input to at most `max_length` tokens (0: the model's limit; UsageError when
  /// larger) and runs the model in batches of `batch_size`. DataError "`source`: input N: ..."
  /// (1-based) for an input the tokenizer refuses. The same bytes for any thread count.
  [[nodiscard]] TextOutputs run(std::span<const TextInput> inputs, std::size_t max_length, std::size_t batch_size,
                                const std::string& source) const;

  /// checkpoint_files_record(folder()) with "model" and "tokenizer" (their descriptions).
  [[nodiscard]] nlohmann::ordered_json record() const;

 private:
  PretrainedModel model_;
  std::unique_ptr<tokenizer::Tokenizer> tokenizer_;
};

/// What identifies the checkpoint in `folder` without loading it: {"folder", "config" (config.json
/// as read), "weights_xxh64": {file name: XXH64 of its bytes, as io::checksum_hex}} for every
/// *.safetensors file of the folder and model.safetensors.index.json when present, by name.
/// DataError naming the file for an unreadable config.json or weight file.
nlohmann::ordered_json checkpoint_files_record(const std::filesystem::path& folder);

/// Softmax of `logits` in double, the largest logit subtracted first.
std::vector<double> softmax(std::span<const float> logits);

}  // namespace claimrag::pretrained
