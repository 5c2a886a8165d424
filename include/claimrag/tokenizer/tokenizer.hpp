#pragma once
// Tokenizers of pretrained Hugging Face encoders, read from the model's folder: `tokenizer.json`
// (WordPiece with BERT's normaliser and pre-tokeniser, or byte-level BPE), or the older files
// (`vocab.txt`; `vocab.json` + `merges.txt`; `spm.model`; T5's `spiece.model`). Each gives the token ids the reference
// tokenizer gives for the same text, pair template and truncation, so that a checkpoint sees
// exactly the inputs it was trained on.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::tokenizer {

/// One encoded text or text pair, special tokens included, after truncation. Every position is
/// attended to (no padding here: batching pads, see pad_id()).
struct Encoding {
  std::vector<std::int32_t> input_ids;
  std::vector<std::int32_t> token_type_ids;  ///< segment ids: 0 for the first text, 1 for the pair (model templates permitting)
  std::size_t truncated_tokens = 0;          ///< tokens of the texts removed to fit max_length (0 when none)
};

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;
  /// Encodes `text` (and `text_pair`, when given, even empty: an empty second text is an empty
  /// segment, `[CLS] A [SEP] [SEP]`) with the folder's pair template, truncating the texts
  /// longest-first so that the whole fits `max_length` tokens (0: no limit). DataError naming the
  /// byte offset for invalid UTF-8.
  [[nodiscard]] virtual Encoding encode(std::string_view text, std::optional<std::string_view> text_pair,
                                        std::size_t max_length) const = 0;
  /// The length the reference truncates to when the caller gives none: tokenizer_config.json's
  /// model_max_length, or a sentence-transformers folder's max_seq_length; unset when the folder
  /// sets no limit.
  [[nodiscard]] virtual std::optional<std::size_t> model_max_length() const = 0;
  /// The id that pads a batch's shorter sequences.
  [[nodiscard]] virtual std::int32_t pad_id() const = 0;
  /// The number of ids in the vocabulary, added tokens included.
  [[nodiscard]] virtual std::size_t vocabulary_size() const = 0;
  /// What was read, for meta.json and messages ("tokenizer.json: WordPiece, 30522 tokens").
  [[nodiscard]] virtual std::string description() const = 0;
};

/// The length to encode to: `requested` when not 0, else the tokenizer's model_max_length (the
/// reference's length when none is given), never more than `model_limit` (the positions the model
/// has).
std::size_t length_to_encode(const Tokenizer& tokenizer, std::size_t requested, std::size_t model_limit);

/// The tokenizer of the model folder `folder`, chosen as AutoTokenizer chooses: `tokenizer.json`
/// when present (the fast tokenizer), else `vocab.txt`, `vocab.json` + `merges.txt`, `spm.model`,
/// or T5's `spiece.model` (the slow tokenizer classes), with `tokenizer_config.json` and `special_tokens_map.json` when
/// present; in a sentence-transformers folder (modules.json), with `sentence_bert_config.json`'s
/// text settings. `model_type` (config.json's) picks the tokenizer class when tokenizer_config.json
/// names none. DataError naming the folder and the files looked for when none is there,
/// or naming the file and what is wrong when one is malformed.
std::unique_ptr<Tokenizer> load_tokenizer(const std::filesystem::path& folder, std::string_view model_type);

}  // namespace claimrag::tokenizer
