// SentencePiece's Metaspace pre-tokeniser, as the tokenizers library runs it on each piece of
// normalised text.
#include "claimrag/tokenizer/pre_tokenizer.hpp"

namespace claimrag::tokenizer {

std::vector<std::u32string> metaspace_split(const std::u32string& text, const MetaspaceOptions& options,
                                            bool at_text_start) {
  if (text.empty()) return {};  // the reference prepends nothing to an empty piece
  std::u32string replaced = text;
  for (char32_t& c : replaced)
    if (c == U' ') c = options.replacement;
  const bool prepend = options.prepend == MetaspaceOptions::Prepend::always ||
                       (options.prepend == MetaspaceOptions::Prepend::first && at_text_start);
  if (prepend && replaced.front() != options.replacement) replaced.insert(replaced.begin(), options.replacement);
  if (!options.split) return {replaced};
  // Each replacement character begins a new word (the reference's MergedWithNext).
  std::vector<std::u32string> words;
  std::u32string word;
  for (char32_t c : replaced) {
    if (c == options.replacement && !word.empty()) words.push_back(std::move(word)), word.clear();
    word.push_back(c);
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

}  // namespace claimrag::tokenizer
