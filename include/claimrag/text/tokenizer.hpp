#pragma once
// The paper's tokenizer: ASCII-lowercase the text, then take every maximal run of [a-z0-9].
// Every other byte (punctuation, whitespace, and each byte of a non-ASCII UTF-8 character)
// separates tokens.

#include <string>
#include <string_view>
#include <vector>

namespace claimrag::text {

/// The tokens of `text`, in order, lower-cased.
std::vector<std::string> tokenize(std::string_view text);

/// Calls `visit(token)` for every token of `text` without allocating per token; the view
/// points into a buffer reused between calls, valid only during the call.
template <typename Visitor>
void for_each_token(std::string_view text, Visitor&& visit);

/// Number of tokens of `text`.
std::size_t count_tokens(std::string_view text);

/// True for the bytes a token is made of, after lower-casing: a-z and 0-9.
constexpr bool is_token_byte(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
/// ASCII lower-casing; every other byte is unchanged.
constexpr char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

template <typename Visitor>
void for_each_token(std::string_view text, Visitor&& visit) {
  std::string token;
  for (const char raw : text) {
    const char c = ascii_lower(raw);
    if (is_token_byte(c)) {
      token.push_back(c);
    } else if (!token.empty()) {
      visit(std::string_view(token));
      token.clear();
    }
  }
  if (!token.empty()) visit(std::string_view(token));
}

}  // namespace claimrag::text
