#pragma once
// Added (and special) tokens written literally in the text, found as the reference finds them:
// first the tokens marked not `normalized` in the raw text, then the `normalized` ones in the
// normalised text of what is left; leftmost match first, the longest at one place; a
// `single_word` token only between non-word characters; `lstrip` / `rstrip` take the whitespace
// beside the token into it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "claimrag/tokenizer/prefix_trie.hpp"

namespace claimrag::tokenizer {

struct AddedToken {
  std::string content;
  std::int32_t id = 0;
  bool single_word = false;
  bool lstrip = false;
  bool rstrip = false;
  bool normalized = true;
  bool special = false;
};

/// A piece of text: either an added token's id, or text still to tokenise.
struct TextPiece {
  std::u32string text;
  std::optional<std::int32_t> id;
};

/// The added tokens of one matching pass, with the text each is matched as.
class AddedTokenMatcher {
 public:
  AddedTokenMatcher() = default;
  /// `patterns[i]` is what `tokens[i]` is matched as (its content, or its normalised content).
  AddedTokenMatcher(std::vector<AddedToken> tokens, std::vector<std::u32string> patterns);
  /// `text` cut into added tokens and the text between them (no empty text pieces; an empty
  /// `text` gives one empty piece).
  [[nodiscard]] std::vector<TextPiece> split(const std::u32string& text) const;
  [[nodiscard]] bool empty() const { return tokens_.empty(); }

 private:
  std::vector<AddedToken> tokens_;
  PrefixTrie<char32_t> patterns_;  // each non-empty pattern to its token's index
  std::size_t longest_ = 0;        // the longest pattern's length
};

}  // namespace claimrag::tokenizer
