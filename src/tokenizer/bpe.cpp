#include "claimrag/tokenizer/bpe.hpp"

#include <limits>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/unicode.hpp"

namespace claimrag::tokenizer {

Bpe::Bpe(Vocabulary vocabulary, const std::vector<std::pair<std::string, std::string>>& merges, BpeOptions options,
         const std::string& source)
    : SubwordModel(std::move(vocabulary)), options_(std::move(options)) {
  if (options_.unk_token) {
    unk_id_ = token_to_id(*options_.unk_token);
    if (!unk_id_) throw DataError(source, "the BPE vocabulary has no unknown token \"" + *options_.unk_token + "\"");
  }
  const std::size_t prefix = options_.continuing_subword_prefix.size();
  for (std::size_t rank = 0; rank < merges.size(); ++rank) {
    const auto& [left, right] = merges[rank];
    const auto left_id = token_to_id(left);
    const auto right_id = token_to_id(right);
    // The merged token drops the right symbol's continuation prefix.
    const std::string tail = prefix > 0 && right.compare(0, prefix, options_.continuing_subword_prefix) == 0
                                 ? right.substr(prefix)
                                 : right;
    const auto merged_id = token_to_id(left + tail);
    if (!left_id || !right_id || !merged_id)
      throw DataError(source, "merge " + std::to_string(rank + 1) + " (\"" + left + " " + right +
                                  "\") uses a token the vocabulary lacks");
    // A pair listed twice keeps its last rank, as the reference's map does.
    merges_.insert_or_assign(std::make_pair(*left_id, *right_id), Merge{rank, *merged_id});
  }
}

void Bpe::tokenize(const std::u32string& word, std::vector<std::int32_t>& ids) const {
  if (word.empty()) return;
  if (options_.ignore_merges) {
    if (const auto whole = token_to_id(unicode::encode_utf8(word))) {
      ids.push_back(*whole);
      return;
    }
  }
  // The word's symbols: each character, with the prefix / suffix the vocabulary is written with.
  std::vector<std::int32_t> symbols;
  bool previous_unknown = false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    std::string text;
    if (i > 0) text += options_.continuing_subword_prefix;
    unicode::append_utf8(text, word[i]);
    if (i + 1 == word.size()) text += options_.end_of_word_suffix;
    if (const auto id = token_to_id(text)) {
      symbols.push_back(*id);
      previous_unknown = false;
    } else if (unk_id_) {
      if (!(options_.fuse_unk && previous_unknown)) symbols.push_back(*unk_id_);
      previous_unknown = true;
    }
  }
  while (symbols.size() > 1) {
    std::size_t best_rank = std::numeric_limits<std::size_t>::max();
    std::size_t best_at = 0;
    std::int32_t best_id = 0;
    for (std::size_t i = 0; i + 1 < symbols.size(); ++i) {
      const auto found = merges_.find({symbols[i], symbols[i + 1]});
      if (found != merges_.end() && found->second.rank < best_rank) {
        best_rank = found->second.rank;
        best_at = i;
        best_id = found->second.merged_id;
      }
    }
    if (best_rank == std::numeric_limits<std::size_t>::max()) break;
    symbols[best_at] = best_id;
    symbols.erase(symbols.begin() + static_cast<std::ptrdiff_t>(best_at) + 1);
  }
  ids.insert(ids.end(), symbols.begin(), symbols.end());
}

}  // namespace claimrag::tokenizer
