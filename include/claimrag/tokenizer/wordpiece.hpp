#pragma once
// WordPiece: the longest vocabulary entry from the start of the word, then the longest
// `##`-prefixed entry from where it ended, and so on; a word with a part no entry covers, or
// longer than max_input_chars_per_word characters, is the unknown token as a whole.

#include <cstddef>
#include <string>

#include "claimrag/tokenizer/model.hpp"

namespace claimrag::tokenizer {

struct WordPieceOptions {
  std::string unk_token = "[UNK]";
  std::string continuing_subword_prefix = "##";
  std::size_t max_input_chars_per_word = 100;
};

class WordPiece final : public SubwordModel {
 public:
  /// DataError (naming `source`) when the vocabulary lacks the unknown token.
  WordPiece(Vocabulary vocabulary, WordPieceOptions options, const std::string& source);
  void tokenize(const std::u32string& word, std::vector<std::int32_t>& ids) const override;
  [[nodiscard]] std::string name() const override { return "WordPiece"; }

 private:
  WordPieceOptions options_;
  std::int32_t unk_id_ = 0;
};

}  // namespace claimrag::tokenizer
