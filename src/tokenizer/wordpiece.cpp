#include "claimrag/tokenizer/wordpiece.hpp"

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/unicode.hpp"

namespace claimrag::tokenizer {

WordPiece::WordPiece(Vocabulary vocabulary, WordPieceOptions options, const std::string& source)
    : SubwordModel(std::move(vocabulary)), options_(std::move(options)) {
  const auto unk = token_to_id(options_.unk_token);
  if (!unk) throw DataError(source, "the WordPiece vocabulary has no unknown token \"" + options_.unk_token + "\"");
  unk_id_ = *unk;
}

void WordPiece::tokenize(const std::u32string& word, std::vector<std::int32_t>& ids) const {
  if (word.size() > options_.max_input_chars_per_word) {
    ids.push_back(unk_id_);
    return;
  }
  std::vector<std::int32_t> pieces;
  std::size_t start = 0;
  while (start < word.size()) {
    std::size_t end = word.size();
    std::optional<std::int32_t> found;
    for (; end > start; --end) {
      std::string candidate = start > 0 ? options_.continuing_subword_prefix : std::string();
      candidate += unicode::encode_utf8(std::u32string_view(word).substr(start, end - start));
      found = token_to_id(candidate);
      if (found) break;
    }
    if (!found) {
      ids.push_back(unk_id_);
      return;
    }
    pieces.push_back(*found);
    start = end;
  }
  ids.insert(ids.end(), pieces.begin(), pieces.end());
}

}  // namespace claimrag::tokenizer
