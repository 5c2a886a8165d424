#pragma once
// What the Python (slow) tokenizer classes over a SentencePiece model share: the model loaded
// through libsentencepiece, the special tokens cut out of the text first (with no whitespace taken
// beside them), each text tokenised on its own, the pair truncated one token at a time from the
// longer text, then the pair template.

#include <sentencepiece_processor.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/tokenizer/added_tokens.hpp"
#include "claimrag/tokenizer/template.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"
#include "folder_settings.hpp"

namespace claimrag::tokenizer {

class SentencePieceClassTokenizer : public Tokenizer {
 public:
  [[nodiscard]] Encoding encode(std::string_view text, std::optional<std::string_view> text_pair,
                                std::size_t max_length) const override;
  [[nodiscard]] std::optional<std::size_t> model_max_length() const override { return model_max_length_; }
  [[nodiscard]] std::int32_t pad_id() const override { return pad_id_; }
  [[nodiscard]] std::size_t vocabulary_size() const override { return vocabulary_size_; }
  [[nodiscard]] std::string description() const override;

 protected:
  /// Loads `file` (DataError naming it when it is not a SentencePiece model); `kind` says what it
  /// is read as in description() ("SentencePiece"); `settings` gives the length and truncation side.
  SentencePieceClassTokenizer(const std::filesystem::path& file, std::string kind, const FolderSettings& settings);
  /// The special tokens matched in the raw text (`source` names the file in errors).
  void set_special_tokens(std::vector<AddedToken> tokens, const std::string& source);
  /// The ids of one piece of text between special tokens (never empty).
  virtual void encode_piece(const std::u32string& piece, std::vector<std::int32_t>& ids) const = 0;

  sentencepiece::SentencePieceProcessor processor_;
  std::size_t vocabulary_size_ = 0;
  std::int32_t pad_id_ = 0;
  PairTemplate template_;

 private:
  [[nodiscard]] std::vector<std::int32_t> encode_text(std::string_view text, std::string_view what) const;

  std::string source_;
  std::string kind_;
  // tokenizer_config.json's model_max_length and truncation_side, as the Python classes take them.
  std::optional<std::size_t> model_max_length_;
  TruncationSide truncation_side_;
  AddedTokenMatcher specials_;
};

}  // namespace claimrag::tokenizer
