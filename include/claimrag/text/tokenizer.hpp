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

/// Calls `visit(begin, length)` for every token of `text`, as the bytes of `text` it is cut from
/// (each token is that run lower-cased): the one place the rule is written.
template <typename Visitor>
void for_each_token_span(std::string_view text, Visitor&& visit);

/// Number of tokens of `text`.
std::size_t count_tokens(std::string_view text);

/// True for the bytes a token is made of, after lower-casing: a-z and 0-9.
constexpr bool is_token_byte(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
/// ASCII lower-casing; every other byte is unchanged.
constexpr char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

template <typename Visitor>
void for_each_token_span(std::string_view text, Visitor&& visit) {
  std::size_t begin = 0;
  bool in_token = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool token_byte = is_token_byte(ascii_lower(text[i]));
    if (token_byte && !in_token) {
      begin = i;
      in_token = true;
    } else if (!token_byte && in_token) {
      visit(begin, i - begin);
      in_token = false;
    }
  }
  if (in_token) visit(begin, text.size() - begin);
}

template <typename Visitor>
void for_each_token(std::string_view text, Visitor&& visit) {
  std::string token;
  for_each_token_span(text, [&](std::size_t begin, std::size_t length) {
    token.assign(text.substr(begin, length));
    for (char& c : token) c = ascii_lower(c);
    visit(std::string_view(token));
  });
}

}  // namespace claimrag::text
