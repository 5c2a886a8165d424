#include "claimrag/tokenizer/added_tokens.hpp"

#include <algorithm>

#include "claimrag/tokenizer/unicode.hpp"

namespace claimrag::tokenizer {

AddedTokenMatcher::AddedTokenMatcher(std::vector<AddedToken> tokens, std::vector<std::u32string> patterns)
    : tokens_(std::move(tokens)) {
  std::vector<std::u32string_view> keys;
  std::vector<std::int32_t> indices;
  for (std::size_t t = 0; t < patterns.size(); ++t) {
    if (patterns[t].empty()) continue;
    keys.emplace_back(patterns[t]);
    indices.push_back(static_cast<std::int32_t>(t));
    longest_ = std::max(longest_, patterns[t].size());
  }
  patterns_ = PrefixTrie<char32_t>(keys, indices);
}

std::vector<TextPiece> AddedTokenMatcher::split(const std::u32string& text) const {
  if (text.empty()) return {TextPiece{}};
  std::vector<TextPiece> pieces;
  std::size_t piece_start = 0;  // where the text not yet given to a piece starts
  std::size_t search = 0;       // where the next match may start (after the last match, whatever was taken)
  while (search < text.size()) {
    // Leftmost-longest: the first position where any pattern matches, the longest pattern there
    // (of two equal patterns, the first token), found by one walk of the trie per position.
    std::size_t match_at = text.size();
    std::size_t match_length = 0;
    std::size_t match_token = 0;
    for (std::size_t at = search; at < text.size() && match_length == 0; ++at) {
      patterns_.walk(std::u32string_view(text).substr(at), longest_, [&](std::size_t length, std::int32_t token) {
        match_at = at;
        match_length = length;
        match_token = static_cast<std::size_t>(token);
      });
    }
    if (match_length == 0) break;
    search = match_at + match_length;
    const AddedToken& token = tokens_[match_token];
    std::size_t start = match_at;
    std::size_t stop = match_at + match_length;
    if (token.single_word) {
      const bool word_before = start > 0 && unicode::is_word_character(text[start - 1]);
      const bool word_after = stop < text.size() && unicode::is_word_character(text[stop]);
      if (word_before || word_after) continue;
    }
    if (token.lstrip) {
      std::size_t new_start = start;
      while (new_start > 0 && unicode::is_white_space(text[new_start - 1])) --new_start;
      start = std::max(new_start, piece_start);
    }
    if (token.rstrip) {
      while (stop < text.size() && unicode::is_white_space(text[stop])) ++stop;
      search = std::max(search, stop);
    }
    if (piece_start < start) pieces.push_back(TextPiece{text.substr(piece_start, start - piece_start), std::nullopt});
    pieces.push_back(TextPiece{text.substr(start, stop - start), token.id});
    piece_start = stop;
  }
  if (piece_start < text.size()) pieces.push_back(TextPiece{text.substr(piece_start), std::nullopt});
  return pieces;
}

}  // namespace claimrag::tokenizer
